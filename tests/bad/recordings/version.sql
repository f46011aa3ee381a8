-- expect: pmutop: -r version.pmrec: recorded in format version 99; this pmutop reads up to version 1 (upgrade pmutop)
UPDATE meta SET value = '99' WHERE key = 'version';
