-- expect: pmutop: -r profile.pmrec: damaged recording (profile 0 does not load)
UPDATE meta SET value = '[group x' WHERE key = 'profile.0.text';
