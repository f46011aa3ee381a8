-- expect: pmutop: -r regex.pmrec: damaged recording (profile 0 does not load)
-- a CPU model expression that glibc's regcomp would expand past its stack (SIGSEGV) or
-- compile for half a minute and 5 GB: refused before it is compiled, in a recording too
UPDATE meta SET value = replace(value, '[profile]', '[profile]' || char(10) || 'when = cpuid ~(((.?){30}){30}){30}X') WHERE key = 'profile.0.text';
