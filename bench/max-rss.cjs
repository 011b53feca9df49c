// Preloaded into a benchmarked child (node --require bench/max-rss.cjs ...): at exit, prints
// the process's peak resident memory (getrusage ru_maxrss: every thread, worker threads
// included) to stderr as "manycore-bench maxRSS <kB>", for bench/run.mjs to read.
process.on('exit', () => process.stderr.write(`manycore-bench maxRSS ${process.resourceUsage().maxRSS}\n`));
