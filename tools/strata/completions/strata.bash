# bash completion for strata (install as /usr/share/bash-completion/completions/strata).
_strata() {
  local cur prev words cword
  _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; cword=$COMP_CWORD; words=("${COMP_WORDS[@]}"); }
  local commands="compile adopt audit discover assemble mcp usage replay explain chat serve record"
  if [ "$cword" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help" -- "$cur"))
    return
  fi
  local opts
  case "${words[1]}" in
    compile) opts="--root --source --target --json --force --verify --verify-stable --diff --gitignore --watch --help" ;;
    audit) opts="--root --source --target --json --help" ;;
    adopt) opts="--root --force --from --help" ;;
    discover) opts="--json --content --all --verbose --global --no-global --marker --root --walk-to-fs-root --name --first-only --max-file-bytes --max-total-bytes --max-import-depth --allow-outside-root --allow-dir --help" ;;
    usage) opts="--home --claude-projects --codex-sessions --opencode-storage --since --project --json --html --help" ;;
    assemble|replay|explain|chat|serve|record) opts="--help" ;;
    mcp) opts="--help" ;;
  esac
  case "$prev" in
    --root|--allow-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --source|--from|--global) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --target)
      COMPREPLY=($(compgen -W "claude-code cursor copilot windsurf gemini-cli codex cline zed junie kiro amazon-q aider roo-code kilo-code goose crush warp openhands continue augment qwen-code trae jetbrains-ai firebase-studio antigravity grok" -- "${cur##*,}"))
      return ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _strata strata
