-- expect: pmutop: -r ncounters.pmrec: damaged recording (no counter count)
UPDATE meta SET value = '999999999' WHERE key = 'ncounters';
