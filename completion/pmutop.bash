# bash completion for pmutop: options, sub-commands, profile and demo machine names,
# batch formats, list topics. Installed by make install (bash-completion's directory).

_pmutop()
{
    local cur prev words cword
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    local sub=""
    [ "$COMP_CWORD" -gt 1 ] && sub=${COMP_WORDS[1]}

    case $prev in
        -P|--profile)
            COMPREPLY=($(compgen -W "$(pmutop list profiles 2>/dev/null | awk '{ print $1 }')" -- "$cur"))
            compopt -o filenames 2>/dev/null
            COMPREPLY+=($(compgen -f -X '!*.ini' -- "$cur"))
            return ;;
        --demo)
            COMPREPLY=($(compgen -W "$(pmutop list machines 2>/dev/null)" -- "$cur"))
            return ;;
        -M|--metrics)
            COMPREPLY=($(compgen -W "$(pmutop list metrics 2>/dev/null | awk '{ print $1 }')" -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "text csv json" -- "$cur"))
            return ;;
        --sysfs-root|--proc-root)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        --model|-o|--output|-w|--write|--info)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -r|--read)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -X '!*.pmrec' -- "$cur") $(compgen -d -- "$cur"))
            return ;;
        -d|--delay|-n|--iterations|--seed|-f|--filter|--listen|--begin|--end|--duration|--rotate|--keep|--window)
            return ;;
    esac
    case $sub in
        list)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--sysfs-root --demo --all --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "pmus events profiles metrics metricgroups machines pci" -- "$cur"))
            fi
            return ;;
        encode)
            COMPREPLY=($(compgen -W "--sysfs-root --demo --help" -- "$cur"))
            return ;;
        record)
            COMPREPLY=($(compgen -W "-o --duration --rotate --keep --force --info -d -P -f --demo --sim
                --sysfs-root --help" -- "$cur"))
            return ;;
        serve)
            COMPREPLY=($(compgen -W "--listen --per-cpu --http-limits --cgroups -G --cgroup -d -P -f --demo --sim --sysfs-root" -- "$cur"))
            return ;;
        rules)
            COMPREPLY=($(compgen -W "--window --cgroups -d -P -f --demo --sim --sysfs-root" -- "$cur"))
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "-b --batch -d --delay -n --iterations --format --raw -A --no-aggr --per-socket -C --cpu -o --output
            -P --profile -p --pid -t --tid --per-core --per-node --tasks --per-thread -G --cgroup --cgroups -M --metrics -f --filter --sysfs-root --proc-root --sim --model --demo --seed
            --fake-clock --dry-run -w --write -r --read --force --begin --end --listen --per-cpu
            --http-limits -h --help -V --version" -- "$cur"))
    elif [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "list encode record serve rules" -- "$cur"))
    fi
}
complete -F _pmutop pmutop
