#!/usr/bin/env bash
# Type-checks every Apple-only Swift file against the SDK stand-ins in this folder (part of
# `make portability`; docs/platforms.md says what that proves and what it does not).
#
# Apple-only files are found, not listed: every Swift file of the Apple view's targets whose code
# sits under `#if canImport(X)` for an Apple SDK framework (ImageIO, WebKit, UIKit, AppKit,
# SwiftUI, Network, CoreGraphics). A framework with no stand-in here fails the run.
#
# 1. The stand-in modules (Darwin, CoreGraphics, ImageIO, WebKit, ObjectiveC, Network) are built
#    with swiftc; UIKit and SwiftUI into an iOS folder, AppKit and SwiftUI into a macOS folder. With the
#    Darwin stand-in importable, `canImport(Darwin)` holds: files that test Darwin before Glibc
#    (Lock, WorkerThreads) compile their Darwin branch.
# 2. The core module WebPBridge is compiled from its sources with the stand-ins importable, so
#    `canImport(ImageIO)` holds and its Apple-only code (ImageIOCodec, the ImageIO branch of
#    PlatformCodec) is compiled; every body is type-checked (-wmo, no body skipping).
# 3. The adapters WebPURLProtocol and WebViewBridge are type-checked against that core module,
#    WebPBridgeSchemeHandler (canImport(WebKit)) among them.
# 4. The Apple views module WebPBridgeUI is type-checked twice: against the iOS stand-ins (UIKit,
#    so its UIKit files compile) and against the macOS ones (AppKit without UIKit, so its AppKit
#    files compile), SwiftUI and Network both times.
# 5. Apple-only test files are type-checked one by one against the core and TestTraits.
# 6. Every file in Examples/ (docs/apple-setup.md) is type-checked on its own, as an app's code
#    (against the iOS stand-ins, with WebPBridgeUI built for iOS).
# Compiler settings are the package's: Swift 6 language mode, ExistentialAny,
# InternalImportsByDefault, MemberImportVisibility.
#
# usage: Tests/StandIns/typecheck.sh [--root DIR] [--scratch DIR]
#   --root DIR     the package tree to check (default: this checkout; the mutation script
#                  passes a mutated copy)
#   --scratch DIR  where modules are written (default: DIR/.build/portability-standins)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
scratch=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="$(cd "$2" && pwd)"; shift 2 ;;
    --scratch) scratch="$2"; shift 2 ;;
    *) echo "usage: $0 [--root DIR] [--scratch DIR]" >&2; exit 2 ;;
  esac
done
scratch="${scratch:-$root/.build/portability-standins}"
standins="$root/Tests/StandIns"
SWIFTC="${SWIFTC:-swiftc}"
rm -rf "$scratch"
mkdir -p "$scratch"

settings=(-swift-version 6 -package-name webpbridge
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility -I "$scratch")

# Every Swift file under the folders an Apple build compiles (the Apple view's portable targets).
portable_sources=(Sources/Portable Tests/WebPBridgeTests Tests/Helpers/TestTraits)
sdk_frameworks='ImageIO|WebKit|UIKit|AppKit|SwiftUI|Network|CoreGraphics'
cd "$root"
mapfile -t apple_only < <(grep -rlE "^[[:space:]]*#(if|elseif) .*canImport\(($sdk_frameworks)\)" \
  --include='*.swift' "${portable_sources[@]}" | sort)
frameworks="$(grep -rhoE "canImport\(($sdk_frameworks)\)" "${apple_only[@]}" | sort -u \
  | sed -E 's/canImport\((.*)\)/\1/')"
for framework in $frameworks; do
  if [ ! -d "$standins/$framework" ]; then
    echo "typecheck: $framework is used under canImport($framework) but has no stand-in in Tests/StandIns" >&2
    exit 1
  fi
done

# 1. The stand-ins, in dependency order.
for module in Darwin CoreGraphics ImageIO WebKit ObjectiveC Network; do
  "$SWIFTC" -emit-module -parse-as-library -swift-version 6 -I "$scratch" -module-name "$module" \
    -emit-module-path "$scratch/$module.swiftmodule" "$standins/$module"/*.swift
done
for view in iOS:UIKit macOS:AppKit; do
  folder="$scratch/${view%%:*}"
  mkdir -p "$folder"
  for module in "${view##*:}" SwiftUI; do
    "$SWIFTC" -emit-module -parse-as-library -swift-version 6 -I "$scratch" -I "$folder" -module-name "$module" \
      -emit-module-path "$folder/$module.swiftmodule" "$standins/$module"/*.swift
  done
done

# 2. The core, every body type-checked.
mapfile -t core < <(find Sources/Portable/WebPBridge -name '*.swift' | sort)
"$SWIFTC" -emit-module -wmo -parse-as-library "${settings[@]}" -module-name WebPBridge \
  -emit-module-path "$scratch/WebPBridge.swiftmodule" "${core[@]}"

# 3. The adapters.
for module in WebPURLProtocol WebViewBridge; do
  mapfile -t files < <(find "Sources/Portable/$module" -name '*.swift' | sort)
  "$SWIFTC" -typecheck -parse-as-library "${settings[@]}" -module-name "$module" "${files[@]}"
done

# 4. The Apple views, once per platform view.
mapfile -t views < <(find Sources/Portable/WebPBridgeUI -name '*.swift' | sort)
for platform in iOS macOS; do
  "$SWIFTC" -typecheck -parse-as-library "${settings[@]}" -I "$scratch/$platform" -module-name WebPBridgeUI \
    "${views[@]}"
done

# 5. Apple-only test files, against the core and the test traits built from source.
mapfile -t traits < <(find Tests/Helpers/TestTraits -name '*.swift' | sort)
"$SWIFTC" -emit-module -wmo -parse-as-library "${settings[@]}" -module-name TestTraits \
  -emit-module-path "$scratch/TestTraits.swiftmodule" "${traits[@]}"
tests=0
for file in "${apple_only[@]}"; do
  case "$file" in
    Tests/*)
      "$SWIFTC" -typecheck -parse-as-library "${settings[@]}" -module-name AppleOnlyTest "$file"
      tests=$((tests + 1)) ;;
  esac
done

# 6. Examples/ (docs/apple-setup.md), each file on its own as an app's code: against the core and
#    both adapters as modules, without this package's name (no `package` access). On Apple
#    platforms URLSession is in Foundation; swift-corelibs-foundation keeps it in FoundationNetworking,
#    so that module is imported implicitly here, as WebKit's stand-in re-exports it.
examples=0
if [ -d Examples ]; then
  for module in WebPURLProtocol WebViewBridge; do
    mapfile -t files < <(find "Sources/Portable/$module" -name '*.swift' | sort)
    "$SWIFTC" -emit-module -wmo -parse-as-library "${settings[@]}" -module-name "$module" \
      -emit-module-path "$scratch/$module.swiftmodule" "${files[@]}"
  done
  "$SWIFTC" -emit-module -wmo -parse-as-library "${settings[@]}" -I "$scratch/iOS" -module-name WebPBridgeUI \
    -emit-module-path "$scratch/iOS/WebPBridgeUI.swiftmodule" "${views[@]}"
  app_settings=(-swift-version 6 -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility -I "$scratch" -I "$scratch/iOS")
  if "$SWIFTC" -print-target-info | grep -q '"linux'; then
    app_settings+=(-Xfrontend -import-module -Xfrontend FoundationNetworking)
  fi
  mapfile -t example_files < <(find Examples -name '*.swift' | sort)
  for file in "${example_files[@]}"; do
    "$SWIFTC" -typecheck -parse-as-library "${app_settings[@]}" -module-name AppExample "$file"
    examples=$((examples + 1))
  done
  echo "typecheck: $examples example files in Examples/ compiled as an app's code:"
  printf '    %s\n' "${example_files[@]}"
fi

echo "typecheck: ${#apple_only[@]} Apple-only files compiled against the stand-ins of" \
  "$(echo $frameworks | tr '\n' ' ' | sed 's/ $//') (with the core's ${#core[@]} files; $tests test files;" \
  "WebPBridgeUI's ${#views[@]} files for iOS and for macOS):"
printf '    %s\n' "${apple_only[@]}"
mapfile -t darwin_first < <(grep -rlE '^[[:space:]]*#if canImport\(Darwin\)' --include='*.swift' \
  "${portable_sources[@]}" | sort)
echo "typecheck: the Darwin branch of ${#darwin_first[@]} files that test canImport(Darwin) first:"
printf '    %s\n' "${darwin_first[@]}"
