# Sourced, not run: the machine's own Debian archive entries, read from its apt sources, so a
# script can reach another suite of the same archive (backports, a newer release) through the
# mirror the machine already uses, never a host written into the project.
#
#   debian_entries SUITE   prints one-line entries ("deb [options] URI SUITE components") for every
#                          Debian archive entry of this release, with its suite switched to SUITE
#   debian_mirror          prints the first entry's URI (for debootstrap)
#
# Raspberry Pi OS lists its own archive beside Debian's; that archive is left out.

debian_release_codename() {
    [ -r /etc/os-release ] || { echo "no /etc/os-release: cannot tell which Debian release this is" >&2; return 1; }
    local codename
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || { echo "/etc/os-release has no VERSION_CODENAME" >&2; return 1; }
    echo "$codename"
}

_debian_entries_from_deb822() { # FILE CODENAME SUITE
    awk -v codename="$2" -v suite="$3" '
        function flush() {
            if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " codename " ") && enabled != "no") {
                n = split(uris, uri_list, " ")
                for (i = 1; i <= n; i++) {
                    options = signed_by != "" ? "[signed-by=" signed_by "] " : ""
                    print "deb " options uri_list[i] " " suite " " components
                }
            }
            types = uris = suites = components = signed_by = enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        {
            key = $1; sub(/:$/, "", key); value = $0; sub(/^[^:]*:[ \t]*/, "", value)
            if (key == "Types") types = value
            else if (key == "URIs") uris = value
            else if (key == "Suites") suites = value
            else if (key == "Components") components = value
            else if (key == "Signed-By") signed_by = value
            else if (key == "Enabled") enabled = value
        }
        END { flush() }
    ' "$1"
}

_debian_entries_from_list() { # FILE CODENAME SUITE
    awk -v codename="$2" -v suite="$3" '
        $1 != "deb" { next }
        {
            # deb [options] URI suite components: the suite follows the URI, after any [options].
            options_end = 1
            if ($2 ~ /^\[/) { options_end = 2; while (options_end < NF && $options_end !~ /\]$/) options_end++ }
            suite_field = options_end + 2
            if ($suite_field == codename) { $suite_field = suite; print }
        }
    ' "$1"
}

_only_debian_archives() { grep -v -e 'raspberrypi\.\(com\|org\)' -e 'raspbian' | awk '!seen[$0]++' || true; }

debian_entries() { # SUITE
    local codename entries=""
    codename=$(debian_release_codename) || return 1
    if [ -r /etc/apt/sources.list.d/debian.sources ]; then
        entries=$(_debian_entries_from_deb822 /etc/apt/sources.list.d/debian.sources "$codename" "$1" | _only_debian_archives)
    fi
    if [ -z "$entries" ] && [ -r /etc/apt/sources.list ]; then
        entries=$(_debian_entries_from_list /etc/apt/sources.list "$codename" "$1" | _only_debian_archives)
    fi
    [ -n "$entries" ] || { echo "found no Debian '$codename' entry in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list" >&2; return 1; }
    printf '%s\n' "$entries"
}

debian_mirror() {
    debian_entries "$(debian_release_codename)" | head -n 1 | sed -E 's/^deb (\[[^]]*\] )?([^ ]+) .*/\2/'
}
