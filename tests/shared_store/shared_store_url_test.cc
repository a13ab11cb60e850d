// shared_store_url_test.cc: the --shared-store URL grammar
// (redis://[[user]:password@]host[:port][/db], rediss:// for TLS) and the redacted form used in
// warnings.
#include <gtest/gtest.h>

#include "strata/checkpoint.h"

namespace strata {
namespace {

TEST(SharedStoreUrlTest, HostAloneTakesDefaultPortAndDatabase) {
  auto u = ParseSharedStoreUrl("redis://cache.internal");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->host, "cache.internal");
  EXPECT_EQ(u->port, 6379);
  EXPECT_EQ(u->db, 0);
  EXPECT_EQ(u->password, "");
}

TEST(SharedStoreUrlTest, PasswordPortAndDatabase) {
  auto u = ParseSharedStoreUrl("redis://:s3cret@127.0.0.1:6390/2");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->user, "");
  EXPECT_EQ(u->password, "s3cret");
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, 6390);
  EXPECT_EQ(u->db, 2);
}

TEST(SharedStoreUrlTest, UserPasswordAndPercentEscapes) {
  auto u = ParseSharedStoreUrl("rediss://fleet:p%40ss%3Aword@redis.example:6380");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->user, "fleet");
  EXPECT_EQ(u->password, "p@ss:word");
  EXPECT_EQ(u->port, 6380);
}

TEST(SharedStoreUrlTest, PasswordWithoutColonIsThePassword) {
  auto u = ParseSharedStoreUrl("redis://hunter2@localhost");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->user, "");
  EXPECT_EQ(u->password, "hunter2");
}

TEST(SharedStoreUrlTest, BracketedIpv6Host) {
  auto u = ParseSharedStoreUrl("redis://[::1]:7000/1");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 7000);
  EXPECT_EQ(RedactedUrl(*u), "redis://[::1]:7000/1");
}

TEST(SharedStoreUrlTest, RefusesOtherSchemesBadPortsAndNoHost) {
  for (const char* bad :
       {"http://localhost:6379", "localhost:6379", "redis://", "redis://:pw@", "redis://host:http",
        "redis://host:70000", "redis://host:6379/x", "redis://[::1"}) {
    auto u = ParseSharedStoreUrl(bad);
    EXPECT_FALSE(u) << bad;
    if (!u) EXPECT_EQ(u.error().kind, ErrorKind::kInvalidArgument) << bad;
  }
}

TEST(SharedStoreUrlTest, RedactedUrlHidesThePassword) {
  auto u = ParseSharedStoreUrl("redis://:s3cret@127.0.0.1:6390/2");
  ASSERT_TRUE(u);
  EXPECT_EQ(RedactedUrl(*u), "redis://:***@127.0.0.1:6390/2");
  auto plain = ParseSharedStoreUrl("rediss://h");
  ASSERT_TRUE(plain);
  EXPECT_EQ(RedactedUrl(*plain), "rediss://h:6379/0");
}

TEST(SharedStoreUrlTest, ErrorMessagesNeverEchoThePassword) {
  auto u = ParseSharedStoreUrl("redis://:topsecret@host:notaport");
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().message.find("topsecret"), std::string::npos) << u.error().message;
}

TEST(SharedStoreUrlTest, RedissQueryNamesTheClientCertificateKeyAndCa) {
  auto u = ParseSharedStoreUrl(
      "rediss://:pw@cache:6380/1?tls_cert_file=/etc/strata/client.pem&tls_key_file=/etc/"
      "strata/client%20key.pem&tls_ca_file=/etc/strata/ca.pem");
  ASSERT_TRUE(u) << u.error().message;
  EXPECT_EQ(u->host, "cache");
  EXPECT_EQ(u->port, 6380);
  EXPECT_EQ(u->db, 1);
  EXPECT_EQ(u->password, "pw");
  EXPECT_EQ(u->tls_cert_file, "/etc/strata/client.pem");
  EXPECT_EQ(u->tls_key_file, "/etc/strata/client key.pem");
  EXPECT_EQ(u->tls_ca_file, "/etc/strata/ca.pem");
  EXPECT_EQ(RedactedUrl(*u), "rediss://:***@cache:6380/1");
}

TEST(SharedStoreUrlTest, QueryParametersThatCannotWorkAreRefused) {
  for (const char* bad : {"redis://h?tls_ca_file=/ca.pem",    // not TLS
                          "rediss://h?tls_cert_file=/c.pem",  // no key
                          "rediss://h?tls_key_file=/k.pem",   // no certificate
                          "rediss://h?tls_ca_file=",          // empty
                          "rediss://h?verify=no"}) {          // unknown
    auto u = ParseSharedStoreUrl(bad);
    ASSERT_FALSE(u) << bad;
    EXPECT_EQ(u.error().kind, ErrorKind::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace strata
