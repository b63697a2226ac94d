# Sourced by scripts/bench-server.sh and Benchmarks/server/cpu-per-request.sh.
# cpu_ticks PID...: the CPU time (user + system, all threads, from /proc) the processes have used, in
# clock ticks (getconf CLK_TCK a second). A thread that ends while being read is skipped.
cpu_ticks() {
    local total=0 pid task fields
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            read -r -a fields <"$task/stat" 2>/dev/null || continue
            # utime and stime: fields 14 and 15 (no command name here holds a space).
            total=$((total + fields[13] + fields[14]))
        done
    done
    echo "$total"
}
