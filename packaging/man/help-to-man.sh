#!/usr/bin/env bash
# Writes a man page (roff) for PROGRAM from its own --help output, so that the
# page cannot drift from the program: the build runs this after linking.
#
#   help-to-man.sh PROGRAM BINARY VERSION OUT.1
#
# The help's first line is the page's NAME, "Usage:" its SYNOPSIS, every
# "Heading:" a section, every "  OPTION   TEXT" row an indented item and other
# lines paragraphs (the shape CLI11 prints). When the help lists
# "Subcommands:", each one's --help becomes a subsection of COMMANDS. No date
# in the header: the same program gives the same page. Also writes OUT.1.gz.
set -euo pipefail

program=$1 binary=$2 version=$3 out=$4
upper=$(printf '%s' "$program" | tr '[:lower:]-' '[:upper:]_')

# roff for one --help text on stdin. $1: the command's name ("t2n" or
# "t2n export"); $2: "top" or "sub" (inside COMMANDS, headings become italic
# paragraphs); $3: the summary line, left out (NAME and the heading say it).
to_roff() {
  awk -v cmd="$1" -v level="$2" -v summary="$3" '
    function esc(s) {
      gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
      if (s ~ /^[.'"'"']/) s = "\\&" s
      return s
    }
    function heading(s) {
      if (level == "top") print ".SH " toupper(s); else { print ".PP"; print ".I " s }
    }
    function flush() { if (desc != "") { print esc(desc); desc = "" } }
    $0 == summary { next }
    /^Usage: / {
      flush(); sub(/^Usage: [^ ]*/, "")
      if (level == "sub") sub(/^ [a-z][a-z-]*/, "")
      heading("Synopsis"); print ".B " esc(cmd); print esc(substr($0, 2))
      if (level == "top") { d = summary; sub("^" cmd ": ", "", d); print ".SH DESCRIPTION"; print esc(d) }
      next
    }
    /^[A-Z][A-Za-z ]*:$/ { flush(); sub(/:$/, ""); heading($0); next }
    /^                +[^ ]/ { sub(/^ +/, ""); desc = desc (desc == "" ? "" : " ") $0; next }
    /^  [^ ]/ {
      flush(); line = substr($0, 3)
      n = match(line, /  +/)
      item = n ? substr(line, 1, n - 1) : line
      desc = n ? substr(line, n + RLENGTH) : ""
      print ".TP"; print "\\fB" esc(item) "\\fR"
      next
    }
    /^$/ { flush(); next }
    { flush(); print ".PP"; print esc($0) }
    END { flush() }
  '
}

# The summary: the first line that is not the usage line.
# awk reads to the end: leaving early would kill printf with SIGPIPE once the
# help outgrows one write, and pipefail would fail the build now and then.
first_line() { printf '%s\n' "$1" | awk '!done && $0 != "" && !/^Usage: / {print; done = 1}'; }
help=$("$binary" --help)
summary_line=$(first_line "$help")
summary=${summary_line#"$program: "}
{
  printf '.TH %s 1 "" "%s %s" "User Commands"\n' "$upper" "$program" "$version"
  printf '.SH NAME\n%s \\- %s\n' "$program" "$(printf '%s' "$summary" | sed 's/-/\\-/g')"
  printf '%s\n' "$help" | to_roff "$program" top "$summary_line"
  subcommands=$(printf '%s\n' "$help" |
    awk '/^Subcommands:$/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}')
  if [ -n "$subcommands" ]; then
    printf '.SH COMMANDS\n'
    for sub in $subcommands; do
      sub_help=$("$binary" "$sub" --help)
      printf '.SS "%s %s"\n' "$program" "$sub"
      sub_summary=$(first_line "$sub_help")
      printf '%s\n' "$sub_summary" | sed 's/-/\\-/g; s/^[.'"'"']/\\\&&/'
      printf '%s\n' "$sub_help" | to_roff "$program $sub" sub "$sub_summary"
    done
  fi
} >"$out.tmp"
mv "$out.tmp" "$out"
# Debian installs man pages compressed (gzip -9, no name or time stamp).
gzip -9n -c "$out" >"$out.gz"
