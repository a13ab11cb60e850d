// shared_store_test.cc: the shared tier against a real redis-server on loopback (started and
// stopped by each test; skipped without redis-server): publish and fetch across chunks, the index
// entries, and each failure: a flipped byte in a chunk, a header of another model, Redis killed in
// the middle of a transfer, restarted, paused (timeouts), full (noeviction OOM, LRU eviction), a
// wrong password, nothing listening; the lease (exclusive, expires after a crash); TLS, with a
// client certificate named in the URL.
#include <gtest/gtest.h>

#include "base/hash.h"
#include "shared_store/redis_fixture.h"
#include "strata/checkpoint.h"

namespace strata::testing {
namespace {

CheckpointIdentity Identity(const std::string& model, const std::string& prefix) {
  CheckpointIdentity id;
  id.engine = "llama.cpp test";
  id.model = model;
  id.tokenizer = "t";
  id.n_ctx = 1024;
  id.prefix_sha256 = Sha256Hex(prefix);
  return id;
}

struct Image {
  CheckpointIdentity identity;
  std::string key, prefix, bytes;
  std::vector<int32_t> tokens;
};

// A checkpoint image whose payload is `payload_bytes` of a deterministic pattern.
Image MakeImage(const std::string& model, const std::string& prefix, size_t payload_bytes) {
  Image im;
  im.identity = Identity(model, prefix);
  im.key = CheckpointKey(im.identity);
  im.prefix = prefix;
  im.tokens = {1, 22, 333, 4444};
  im.bytes = EncodeCheckpoint(im.identity, prefix, im.tokens, payload_bytes, [&](char* dst) {
    for (size_t i = 0; i < payload_bytes; ++i) dst[i] = static_cast<char>((i * 7 + 3) & 0xff);
  });
  return im;
}

std::unique_ptr<SharedStore> Open(SharedStoreOptions o) {
  auto s = SharedStore::Open(std::move(o));
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? std::move(*s) : nullptr;
}

void PublishAndFlush(SharedStore& store, const Image& im) {
  store.Publish(im.identity, {im.key, im.prefix.size(), im.tokens}, im.bytes, false);
  store.Flush();
}

uint64_t Errors(const SharedStore& s, SharedError e) {
  return s.counters().errors[static_cast<size_t>(e)];
}

class SharedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { STRATA_REQUIRE_REDIS(); }
};

TEST_F(SharedStoreTest, PublishThenFetchRoundTripsAcrossChunks) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options();
  o.chunk_bytes = 1000;
  auto store = Open(o);
  const Image im = MakeImage("m1", "You are a coding agent.", 10'000);
  PublishAndFlush(*store, im);
  EXPECT_EQ(store->counters().published, 1u);
  auto h = redis.Command({"GET", SharedHeaderKey("strata:", im.key)});
  ASSERT_TRUE(h);
  auto header = DecodeSharedHeader(std::string_view((*h)->str, (*h)->len));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->chunks, (im.bytes.size() + 999) / 1000);
  EXPECT_EQ(header->token_count, 4u);

  size_t chunks_read = 0;
  o.on_chunk_read = [&](size_t) { ++chunks_read; };
  auto reader = Open(o);
  SharedFetch f = reader->Fetch(im.key, im.identity, im.prefix);
  ASSERT_EQ(f.state, SharedFetch::kHit) << f.reason;
  EXPECT_EQ(f.checkpoint.image, im.bytes);
  EXPECT_EQ(f.checkpoint.tokens, im.tokens);
  EXPECT_EQ(chunks_read, header->chunks);
  EXPECT_EQ(reader->counters().hits, 1u);
  EXPECT_EQ(reader->counters().read_bytes, im.bytes.size());

  const std::string scope = SharedScope(im.identity);
  auto entries = reader->IndexEntries(scope, {});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].key, im.key);
  EXPECT_EQ(entries[0].prefix_bytes, im.prefix.size());
  EXPECT_EQ(entries[0].tokens, im.tokens);
  EXPECT_TRUE(reader->IndexEntries(scope, {im.key}).empty());
  EXPECT_TRUE(reader->IndexEntries(SharedScope(Identity("m2", "")), {}).empty());
}

TEST_F(SharedStoreTest, AnAbsentKeyIsAMissWithoutError) {
  RedisServer redis;
  auto store = Open(redis.Options());
  const Image im = MakeImage("m1", "p", 100);
  EXPECT_EQ(store->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
  EXPECT_EQ(store->counters().misses, 1u);
  for (uint64_t e : store->counters().errors) EXPECT_EQ(e, 0u);
}

TEST_F(SharedStoreTest, AFlippedByteInAChunkIsRefusedAndForgotten) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options();
  o.chunk_bytes = 512;
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 4000);
  PublishAndFlush(*store, im);
  const std::string chunk = SharedChunkKey("strata:", im.key, 3);
  auto old = redis.Command({"GETRANGE", chunk, "5", "5"});
  ASSERT_TRUE(old);
  const std::string flipped(1, static_cast<char>((*old)->str[0] ^ 0x01));
  ASSERT_TRUE(redis.Command({"SETRANGE", chunk, "5", flipped}));
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kChecksum);
  EXPECT_TRUE(f.checkpoint.image.empty());
  EXPECT_EQ(Errors(*store, SharedError::kChecksum), 1u);
  auto exists = redis.Command({"EXISTS", SharedHeaderKey("strata:", im.key)});
  ASSERT_TRUE(exists);
  EXPECT_EQ((*exists)->integer, 0);  // forgotten: not tried again
  EXPECT_TRUE(store->IndexEntries(SharedScope(im.identity), {}).empty());
}

TEST_F(SharedStoreTest, AHeaderOfAnotherModelIsRefusedBeforeAnyChunk) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options();
  size_t chunks_read = 0;
  o.on_chunk_read = [&](size_t) { ++chunks_read; };
  auto store = Open(o);
  const Image ours = MakeImage("m1", "prefix", 1000);
  const Image theirs = MakeImage("m2", "prefix", 1000);
  PublishAndFlush(*store, theirs);
  // Their header entry stored under our key (a forged or mixed-up entry).
  auto h = redis.Command({"GET", SharedHeaderKey("strata:", theirs.key)});
  ASSERT_TRUE(h);
  auto header = DecodeSharedHeader(std::string_view((*h)->str, (*h)->len));
  ASSERT_TRUE(header);
  header->key = ours.key;
  ASSERT_TRUE(
      redis.Command({"SET", SharedHeaderKey("strata:", ours.key), EncodeSharedHeader(*header)}));
  SharedFetch f = store->Fetch(ours.key, ours.identity, ours.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kIdentity);
  EXPECT_NE(f.reason.find("model differs"), std::string::npos) << f.reason;
  EXPECT_EQ(chunks_read, 0u);
}

TEST_F(SharedStoreTest, RedisKilledInTheMiddleOfATransferFailsAndRecoversAfterRestart) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options();
  o.chunk_bytes = 256;
  auto writer = Open(o);
  const Image im = MakeImage("m1", "prefix", 8000);  // ~32 chunks
  PublishAndFlush(*writer, im);
  o.on_chunk_read = [&](size_t chunk) {
    if (chunk == 5) redis.Kill();
  };
  auto reader = Open(o);
  SharedFetch f = reader->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kUnreachable) << f.reason;
  EXPECT_TRUE(f.checkpoint.image.empty());
  EXPECT_EQ(Errors(*reader, SharedError::kUnreachable), 1u);
  // Down: every use fails fast as unreachable.
  EXPECT_EQ(reader->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kFailed);
  EXPECT_EQ(reader->AcquireLease(im.key), SharedStore::LeaseState::kUnavailable);
  redis.Restart();  // empty: the checkpoint is gone, nothing is an error
  EXPECT_EQ(reader->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
}

TEST_F(SharedStoreTest, APausedRedisTimesOut) {
  RedisServer redis;
  auto store = Open(redis.Options(/*timeout_ms=*/200));
  const Image im = MakeImage("m1", "prefix", 100);
  EXPECT_EQ(store->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
  redis.Pause();
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  redis.Resume();
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kTimeout) << f.reason;
  EXPECT_EQ(store->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
}

TEST_F(SharedStoreTest, AFullRedisRefusesWritesAsFull) {
  RedisServer redis({.maxmemory = "1mb", .policy = "noeviction"});
  auto store = Open(redis.Options());
  const Image im = MakeImage("m1", "prefix", 2'000'000);
  PublishAndFlush(*store, im);
  EXPECT_EQ(store->counters().published, 0u);
  EXPECT_GE(Errors(*store, SharedError::kFull), 1u);
  EXPECT_EQ(store->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
}

TEST_F(SharedStoreTest, LruEvictionNeverYieldsAPartialCheckpoint) {
  RedisServer redis({.maxmemory = "3mb"});
  SharedStoreOptions o = redis.Options();
  o.chunk_bytes = 64 * 1024;
  auto store = Open(o);
  std::vector<Image> images;
  for (int i = 0; i < 6; ++i) {
    images.push_back(MakeImage("m1", "prefix " + std::to_string(i), 1'000'000));
    PublishAndFlush(*store, images.back());
  }
  size_t hits = 0;
  for (const Image& im : images) {
    SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
    if (f.state == SharedFetch::kHit) {
      ++hits;
      EXPECT_EQ(f.checkpoint.image, im.bytes);
    } else if (f.state == SharedFetch::kFailed) {
      EXPECT_EQ(f.error, SharedError::kIncomplete) << f.reason;
    }
  }
  EXPECT_LT(hits, images.size());  // 6 MB do not fit in 3 MB
}

TEST_F(SharedStoreTest, AWrongPasswordIsReportedAsAuth) {
  RedisServer redis({.password = "right"});
  SharedStoreOptions o = redis.Options();
  o.url.password = "wrong";
  std::vector<std::string> warnings;
  o.warn = [&](std::string_view w) { warnings.emplace_back(w); };
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 100);
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kAuth) << f.reason;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("shared store auth"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find("wrong"), std::string::npos) << "the password leaked: " << warnings[0];
  o.url.password = "right";
  auto good = Open(o);
  EXPECT_EQ(good->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kAbsent);
}

TEST_F(SharedStoreTest, NothingListeningIsUnreachableAndRetriedOnlyAfterRetryMs) {
  SharedStoreOptions o;
  o.url = *ParseSharedStoreUrl("redis://127.0.0.1:" + std::to_string(FreeLoopbackPort()));
  o.retry_ms = 600'000;
  o.warn = [](std::string_view) {};
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 100);
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.error, SharedError::kUnreachable) << f.reason;
  EXPECT_FALSE(store->HasEntry(im.key));
  store->Publish(im.identity, {im.key, 6, im.tokens}, im.bytes, false);
  store->Flush();
  EXPECT_EQ(store->counters().published, 0u);
}

TEST_F(SharedStoreTest, ALeaseIsExclusiveAndExpiresWhenItsHolderCrashes) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options();
  o.lease_ms = 300;
  auto holder = Open(o);
  auto other = Open(o);
  EXPECT_EQ(holder->AcquireLease("k1"), SharedStore::LeaseState::kHeld);
  EXPECT_EQ(other->AcquireLease("k1"), SharedStore::LeaseState::kBusy);
  holder->ReleaseLease("k1");
  EXPECT_EQ(other->AcquireLease("k1"), SharedStore::LeaseState::kHeld);
  other->ReleaseLease("k1");
  // A crash: the holder never releases; the lease expires after lease_ms.
  EXPECT_EQ(holder->AcquireLease("k2"), SharedStore::LeaseState::kHeld);
  holder.reset();
  SharedStore::LeaseState got = SharedStore::LeaseState::kBusy;
  for (int i = 0; i < 500 && got == SharedStore::LeaseState::kBusy; ++i) {
    got = other->AcquireLease("k2");
    if (got == SharedStore::LeaseState::kBusy)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(got, SharedStore::LeaseState::kHeld);
}

TEST_F(SharedStoreTest, ALeaseIsNotReleasedByAnotherInstance) {
  RedisServer redis;
  auto holder = Open(redis.Options());
  auto other = Open(redis.Options());
  EXPECT_EQ(holder->AcquireLease("k"), SharedStore::LeaseState::kHeld);
  other->ReleaseLease("k");  // it holds no token for k: nothing happens
  EXPECT_EQ(other->AcquireLease("k"), SharedStore::LeaseState::kBusy);
}

// Publishes a 1 MB image in 100 kB chunks and fetches it back through `redis`'s own options.
void ExpectRoundTrip(const RedisServer& redis) {
  SharedStoreOptions o = redis.Options();
  o.chunk_bytes = 100'000;
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 1'000'000);
  PublishAndFlush(*store, im);
  EXPECT_EQ(store->counters().published, 1u);
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  ASSERT_EQ(f.state, SharedFetch::kHit) << f.reason;
  EXPECT_EQ(f.checkpoint.image, im.bytes);
}

TEST_F(SharedStoreTest, TlsRoundTripsWithAVerifiedCertificate) {
  RedisServer redis({.tls = true});
  ASSERT_TRUE(redis.running());
  ExpectRoundTrip(redis);
}

TEST_F(SharedStoreTest, TlsRefusesAnUntrustedCertificate) {
  RedisServer redis({.tls = true});
  SharedStoreOptions o = redis.Options();
  o.tls_ca_file.clear();  // the system's CAs do not know the test's self-signed certificate
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 100);
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kAuth) << f.reason;
}

TEST_F(SharedStoreTest, TlsClientCertificateFromTheUrlIsAccepted) {
  RedisServer redis({.tls = true, .tls_client_auth = true});
  ASSERT_TRUE(redis.running());
  ASSERT_FALSE(redis.Options().url.tls_cert_file.empty());
  ExpectRoundTrip(redis);
}

TEST_F(SharedStoreTest, TlsWithoutTheRequiredClientCertificateIsRefusedAsAuth) {
  RedisServer redis({.tls = true, .tls_client_auth = true});
  SharedStoreOptions o = redis.Options();
  o.url.tls_cert_file.clear();
  o.url.tls_key_file.clear();
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 100);
  SharedFetch f = store->Fetch(im.key, im.identity, im.prefix);
  EXPECT_EQ(f.state, SharedFetch::kFailed);
  EXPECT_EQ(f.error, SharedError::kAuth) << f.reason;
  EXPECT_NE(f.reason.find("certificate"), std::string::npos) << f.reason;
}

TEST_F(SharedStoreTest, AnUnreadableClientCertificateIsRefusedAsAuth) {
  RedisServer redis({.tls = true, .tls_client_auth = true});
  SharedStoreOptions o = redis.Options();
  o.url.tls_cert_file = (redis.dir() / "absent.pem").string();
  auto store = Open(o);
  SharedFetch f = store->Fetch("k", Identity("m1", "p"), "p");
  EXPECT_EQ(f.error, SharedError::kAuth) << f.reason;
  EXPECT_NE(f.reason.find("absent.pem"), std::string::npos) << f.reason;
}

TEST_F(SharedStoreTest, PlainRedisSpokenToAsTlsFails) {
  RedisServer redis;
  SharedStoreOptions o = redis.Options(/*timeout_ms=*/500);
  o.url.tls = true;
  auto store = Open(o);
  const Image im = MakeImage("m1", "prefix", 100);
  EXPECT_EQ(store->Fetch(im.key, im.identity, im.prefix).state, SharedFetch::kFailed);
}

}  // namespace
}  // namespace strata::testing
