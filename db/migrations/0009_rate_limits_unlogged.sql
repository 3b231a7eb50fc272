-- Rate-limit counters are written on every API request and worth nothing after a crash: no WAL.
ALTER TABLE "rate_limits" SET UNLOGGED;
