#!/bin/sh
# t0110-cli-doc: what the option tables generate -- the man page (groff
# without warnings, man renders it), the shell completions (bash through
# compgen, zsh and fish when installed) and the README's reference block.
. "$(dirname "$0")/../lib/test-lib.sh"

run_raw help --man
expect_rc 0 "help --man exits 0"
cp "$T/out" "$T/ebsize.1"
if command -v groff >/dev/null; then
	groff -ww -z -man "$T/ebsize.1" >"$T/groff.out" 2>&1
	[ $? = 0 ] && [ ! -s "$T/groff.out" ] && ok "groff -ww -z: no warnings" ||
		fail "groff -ww -z: no warnings" "$(head -5 "$T/groff.out")"
else
	skip "groff -ww -z: no warnings" "groff not installed"
fi
if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$T/ebsize.1" >"$T/man.txt" 2>"$T/man.err"
	grep -q "ebsize pricing fetch" "$T/man.txt" && grep -q -- "--max-stripe K" "$T/man.txt" &&
		[ ! -s "$T/man.err" ] && ok "man -l renders every command and its options" ||
		fail "man -l renders every command and its options" "$(head -3 "$T/man.err")"
else
	skip "man -l renders every command and its options" "man not installed"
fi

# bash: the completion function answers through compgen
run_raw completion bash
expect_rc 0 "completion bash exits 0"
cp "$T/out" "$T/ebsize.bash"
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ebsize;
		 printf "%s\n" "${COMPREPLY[@]}"' sh "$T/ebsize.bash" "$@" | sort | tr '\n' ' '
}
got=$(complete_words ebsize ch)
[ "$got" = "cheapest " ] && ok "bash: ebsize ch<TAB> is cheapest" ||
	fail "bash: ebsize ch<TAB> is cheapest" "got: $got"
got=$(complete_words ebsize --format "")
[ "$got" = "csv json md table xlsx " ] && ok "bash: --format <TAB> lists the formats" ||
	fail "bash: --format <TAB> lists the formats" "got: $got"
got=$(complete_words ebsize --db x.db pricing "")
[ "$got" = "diff fetch history import regions show " ] && ok "bash: pricing <TAB> lists its subcommands after a global with a value" ||
	fail "bash: pricing <TAB> lists its subcommands after a global with a value" "got: $got"
got=$(complete_words ebsize burst --type "")
[ "$got" = "gp2 sc1 st1 " ] && ok "bash: burst --type <TAB> offers only the bucket types" ||
	fail "bash: burst --type <TAB> offers only the bucket types" "got: $got"
got=$(complete_words ebsize cost --size 10 --thr)
[ "$got" = "--throughput " ] && ok "bash: cost --thr<TAB> completes the option" ||
	fail "bash: cost --thr<TAB> completes the option" "got: $got"
mkdir "$T/d" && : >"$T/d/inventory.json"
got=$(cd "$T/d" && complete_words ebsize scan inv)
[ "$got" = "inventory.json " ] && ok "bash: scan operands complete file names" ||
	fail "bash: scan operands complete file names" "got: $got"

if command -v zsh >/dev/null; then
	"$EBSIZE" completion zsh >"$T/ebsize.zsh"
	zsh -c '. "$1" && whence -w _ebsize' sh "$T/ebsize.zsh" >"$T/zsh.out" 2>&1
	grep -q "_ebsize: function" "$T/zsh.out" && ok "zsh: the script loads and defines _ebsize" ||
		fail "zsh: the script loads and defines _ebsize" "$(head -3 "$T/zsh.out")"
else
	skip "zsh: the script loads and defines _ebsize" "zsh not installed"
fi
if command -v fish >/dev/null; then
	"$EBSIZE" completion fish >"$T/ebsize.fish"
	fish -c "source $T/ebsize.fish; complete -C 'ebsize pricing '" >"$T/fish.out" 2>&1
	grep -q "^fetch" "$T/fish.out" && ! grep -q "complete:" "$T/fish.out" &&
		ok "fish: ebsize pricing <TAB> offers fetch" ||
		fail "fish: ebsize pricing <TAB> offers fetch" "$(head -3 "$T/fish.out")"
	fish -c "source $T/ebsize.fish; complete -C 'ebsize --format '" >"$T/fish.out" 2>&1
	[ "$(cut -f1 "$T/fish.out" | sort | tr '\n' ' ')" = "csv json md table xlsx " ] &&
		ok "fish: --format <TAB> lists the formats" ||
		fail "fish: --format <TAB> lists the formats" "$(head -3 "$T/fish.out")"
else
	skip "fish: ebsize pricing <TAB> offers fetch" "fish not installed"
	skip "fish: --format <TAB> lists the formats" "fish not installed"
fi

usage_error "completion without a shell" "say which shell: bash, zsh or fish" completion
usage_error "completion for an unknown shell" "unknown shell 'tcsh' (use bash, zsh or fish)" completion tcsh

# the README's reference block is what the tables say today
"$EBSIZE" help --synopsis >"$T/synopsis"
sed -n '/^<!-- synopsis:begin -->$/,/^<!-- synopsis:end -->$/p' "$ROOT/README.md" |
	sed '1,2d;$d' | sed '$d' >"$T/readme-synopsis"
cmp -s "$T/synopsis" "$T/readme-synopsis" &&
	ok "README reference block equals 'ebsize help --synopsis'" ||
	fail "README reference block equals 'ebsize help --synopsis'" \
		"$(diff "$T/readme-synopsis" "$T/synopsis" | head -8)"
