-- Prints one JSON line with what the benchmark reports: requests/s, p50, p99 (ms), errors.
-- Included by the other scripts; on its own it drives plain GETs.
done = function(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.status + e.timeout
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.2f,"p99_ms":%.2f,"errors":%d,"non2xx":%d}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors, e.status))
end
