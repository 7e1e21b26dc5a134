# Stage times for .ci/test.sh and .ci/run. Source this file, then:
#   stage NAME CMD...   runs CMD in this shell (functions and exports work), prints "== NAME" and
#                       "== NAME: N s", and records the time in $CI_STAGES_FILE;
#   stage_summary       prints every recorded stage as a table (the trap of the outermost script).
# The file is shared through the environment, so `.ci/run`'s summary holds the stages of the
# `make test` and `make test-slow` it ran. A stage that fails (set -e leaves the script inside it)
# is recorded as failed by stage_summary, which the EXIT trap calls.

if [ -z "${CI_STAGES_FILE:-}" ]; then
  CI_STAGES_FILE=$(mktemp /tmp/sotom-stages.XXXXXX)
  export CI_STAGES_FILE
  CI_STAGES_OWNER=1  # this script prints the summary and removes the file
else
  CI_STAGES_OWNER=""
fi
CI_STAGE_PREFIX=${CI_STAGE_PREFIX:-}
_stage_name=""
_stage_start=0

stage() {
  local name="$CI_STAGE_PREFIX$1"
  shift
  _stage_name=$name
  _stage_start=$SECONDS
  echo "== $name"
  "$@"
  printf '%s\t%d\t%s\n' "$name" "$((SECONDS - _stage_start))" ok >>"$CI_STAGES_FILE"
  echo "== $name: $((SECONDS - _stage_start)) s"
  _stage_name=""
}

# A stage left by `set -e` (or a signal): record it once, as failed, with the time it had run.
stage_record_unfinished() {
  if [ -n "$_stage_name" ]; then
    printf '%s\t%d\t%s\n' "$_stage_name" "$((SECONDS - _stage_start))" failed >>"$CI_STAGES_FILE"
    _stage_name=""
  fi
}

# A stage that did not run, and why (shown in the summary).
stage_skipped() {
  printf '%s\t%s\t%s\n' "$CI_STAGE_PREFIX$1" "-" "skipped: $2" >>"$CI_STAGES_FILE"
  echo "== $CI_STAGE_PREFIX$1: skipped ($2)"
}

stage_summary() {
  stage_record_unfinished
  [ -n "$CI_STAGES_OWNER" ] || return 0
  [ -s "$CI_STAGES_FILE" ] || return 0
  echo
  echo "== stage times (s)"
  awk -F'\t' '{ printf "  %-52s %6s  %s\n", $1, $2, $3 }' "$CI_STAGES_FILE"
  printf '  %-52s %6d\n' "total (wall clock)" "$SECONDS"
  rm -f "$CI_STAGES_FILE"
}
