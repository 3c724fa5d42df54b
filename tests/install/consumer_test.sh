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

echo "== find_package(zereduce)"
cmake -S "$source_dir/consumer" -B "$work/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"

echo "== zereduce_add_operator() from the installed package"
cmake -S "$source_dir/operator_consumer" -B "$work/operator-build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/operator-build" >/dev/null
"$work/operator-build/operator_consumer"

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
