-- expect: pmutop: -r machine-blob.pmrec: damaged recording (its machine description: missing or damaged)
UPDATE meta SET value = X'28B52FFD2000' WHERE key = 'machine';
