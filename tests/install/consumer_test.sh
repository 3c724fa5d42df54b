#!/usr/bin/env bash
# Installs this build into a fresh prefix, then builds and runs a tiny application against it twice: through
# find_package(zereduce) and through pkg-config (after moving the prefix, which the .pc file must survive); and
# an application with a user-defined operator of its own (zereduce_add_operator() of the installed package).
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/zereduce/zereduce.hpp"
test -x "$work/prefix/bin/ze_reduce"
test -x "$work/prefix/bin/ze_reduce_conformance"

# Both generators: CMake's default (Unix Makefiles) knows a custom command only in the directory that defines it,
# so zereduce_add_operator() must order its rules by target-level dependencies (operator_consumer defines and
# uses operators across directories); Ninja is what the presets used to take.
generators=("Unix Makefiles")
if command -v ninja >/dev/null; then
  generators+=(Ninja)
else
  echo "(no ninja: the consumers are built with Unix Makefiles only)"
fi
for generator in "${generators[@]}"; do
  tag=${generator// /-}
  echo "== find_package(zereduce), $generator"
  cmake -S "$source_dir/consumer" -B "$work/cmake-build-$tag" -G "$generator" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  cmake --build "$work/cmake-build-$tag" >/dev/null
  "$work/cmake-build-$tag/consumer"

  echo "== zereduce_add_operator() from the installed package, $generator"
  build="$work/operator-build-$tag"
  cmake -S "$source_dir/operator_consumer" -B "$build" -G "$generator" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  # No -j: serial under Makefiles (the parent directory's targets before app/'s and operators/', so a missing
  # cross-directory dependency fails), parallel under Ninja.
  cmake --build "$build" >/dev/null
  "$build/operator_consumer"
  "$build/operator_consumer_from_subdir"
  "$build/app/operator_consumer_app"
done

echo "== pkg-config, prefix moved"
mv "$work/prefix" "$work/moved"
libdir=$(PKG_CONFIG_PATH="$work/moved/lib/pkgconfig:$work/moved/lib/x86_64-linux-gnu/pkgconfig" \
  pkg-config --variable=libdir zereduce)
flags=$(PKG_CONFIG_PATH="$work/moved/lib/pkgconfig:$work/moved/lib/x86_64-linux-gnu/pkgconfig" \
  pkg-config --cflags --libs zereduce)
case "$libdir" in "$work/moved"/*) ;; *) echo "zereduce.pc is not relocatable: libdir=$libdir"; exit 1 ;; esac
# shellcheck disable=SC2086
g++ "$source_dir/consumer/main.cpp" -o "$work/pc-consumer" $flags -Wl,-rpath,"$libdir"
"$work/pc-consumer"
"$work/moved/bin/ze_reduce" --list >/dev/null
"$work/moved/bin/ze_reduce_conformance" --list-devices >/dev/null
