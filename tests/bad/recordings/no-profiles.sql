-- expect: pmutop: -r no-profiles.pmrec: damaged recording (no profiles)
DELETE FROM meta WHERE key LIKE 'profile%';
