-- expect: pmutop: -r machine.pmrec: damaged recording (its machine description: not a pmutop machine description)
UPDATE meta SET value = 'garbage' WHERE key = 'machine';
