-- expect: pmutop: -r counters.pmrec: damaged recording: no such table: counters
DROP TABLE counters;
