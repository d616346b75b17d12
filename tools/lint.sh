#!/bin/sh
# lint.sh - `make lint`: the checks the compiler does not make.
#   1. no banned function (git's banned.h, STYLE.md) in src/ and tools/
#   2. layering: library files never include the command layer's headers
#      (ebsize/cli.h, ebsize/opt.h, ebsize/msg.h, src/cmd_*.h)
#   3. formatting: clang-format (.clang-format) agrees with every C file
#      under src/, include/, tests/unit/ and tools/
# Prints every finding and exits 1 if there is any.
set -u
cd "$(dirname "$0")/.." || exit 2
status=0

banned='(^|[^a-zA-Z0-9_])(sprintf|vsprintf|strcpy|strcat|strncpy|strtok|atoi|atol|atoll|atof|gets)[[:space:]]*\('
hits=$(grep -nE "$banned" src/*.c src/*.h include/ebsize/*.h tools/*.c 2>/dev/null |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*)')
if [ -n "$hits" ]; then
	echo "lint: banned functions (use xsnprintf, xstrdup, parse_long_range, ...):"
	echo "$hits" | sed 's/^/  /'
	status=1
fi

for f in src/*.c; do
	case $f in
	src/cmd_*.c|src/cli.c|src/cli_*.c|src/opt.c|src/msg.c|src/main.c) continue ;;
	esac
	hits=$(grep -nE '#include "(ebsize/(cli|opt|msg)\.h|cmd_[a-z_]*\.h)"' "$f")
	if [ -n "$hits" ]; then
		echo "lint: library file $f includes a command-layer header:"
		echo "$hits" | sed 's/^/  /'
		status=1
	fi
done

if [ "${LINT_FORMAT:-1}" = 1 ]; then
	if ! command -v clang-format >/dev/null 2>&1; then
		echo "lint: clang-format not installed (make deps)"
		status=1
	else
		for f in src/*.c src/*.h include/ebsize/*.h tests/unit/*.c tests/unit/*.h tools/*.c; do
			[ -f "$f" ] || continue
			if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
				echo "lint: $f is not formatted (make fmt)"
				status=1
			fi
		done
	fi
fi
[ $status = 0 ] && echo "lint: ok"
exit $status
