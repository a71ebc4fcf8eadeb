#!/usr/bin/env bash
# Shows that the stand-in type check catches what it claims to (part of `make portability`):
# each mutation below is applied to a copy of the Apple-only code, Tests/StandIns/typecheck.sh is
# run on the copy, and the run must fail with the expected compiler message. A mutation the check
# does not catch fails this script.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/webpbridge-mutations.XXXXXX")"
trap 'rm -rf "$work"' EXIT

handler=Sources/Portable/WebViewBridge/WebPBridgeSchemeHandler.swift
codec=Sources/Portable/WebPBridge/Coding/Codec/ImageIOCodec.swift
lock=Sources/Portable/WebPBridge/Concurrency/Lock.swift
imageview=Sources/Portable/WebPBridgeUI/UIImageView+WebPBridge.swift

# name | file | python expression turning `s` (the file's text) into the mutant | expected message
mutations=(
  "missing import (issue 28, error 3)|$handler|s.replace('    import WebPBridge\n', '', 1)|is not available due to missing import of defining module 'WebPBridge'"
  "wrong isolation|$handler|s.replace('public func register(on', 'nonisolated public func register(on', 1)|call to main actor-isolated instance method 'setURLSchemeHandler(_:forURLScheme:)' in a synchronous nonisolated context"
  "wrong signature (WebKit)|$handler|s.replace('start urlSchemeTask:', 'startURLSchemeTask urlSchemeTask:', 1)|does not conform to protocol 'WKURLSchemeHandler'"
  "wrong signature (ImageIO)|$codec|s.replace('options as CFDictionary)', 'options)', 1)|cannot convert value of type '[CFString : Any]'"
  "wrong isolation (UIKit)|$imageview|s.replace('    @MainActor\n    public struct ImageViewLoading {', '    public struct ImageViewLoading {', 1)|call to main actor-isolated instance method 'setRequest' in a synchronous nonisolated context"
  "wrong type in a Darwin branch|$lock|s.replace('initialize(to: os_unfair_lock())', 'initialize(to: pthread_mutex_t())', 1)|cannot convert value of type 'pthread_mutex_t' to expected argument type 'os_unfair_lock'"
)

failed=0
for entry in "${mutations[@]}"; do
  IFS='|' read -r name file expression expected <<<"$entry"
  copy="$work/tree"
  rm -rf "$copy"
  mkdir -p "$copy/Tests/Helpers"
  cp -R "$root/Sources" "$copy/Sources"
  cp -R "$root/Tests/StandIns" "$root/Tests/WebPBridgeTests" "$copy/Tests/"
  cp -R "$root/Tests/Helpers/TestTraits" "$copy/Tests/Helpers/"
  python3 - "$copy/$file" "$expression" <<'PY'
import sys
path, expression = sys.argv[1], sys.argv[2]
s = open(path).read()
mutant = eval(expression)
if mutant == s:
    sys.exit(f"mutation did not apply to {path}")
open(path, "w").write(mutant)
PY
  if output="$("$here/typecheck.sh" --root "$copy" --scratch "$work/scratch" 2>&1)"; then
    echo "mutations: '$name' in $file was NOT caught: the type check passed"
    failed=1
  elif grep -qF -- "$expected" <<<"$output"; then
    echo "mutations: '$name' in $file caught:"
    grep -F -m 1 -- "$expected" <<<"$output" | sed "s|$copy/||; s/^/    /"
  else
    echo "mutations: '$name' in $file failed, but without \"$expected\":"
    grep -m 3 'error:' <<<"$output" | sed 's/^/    /'
    failed=1
  fi
done
exit $failed
