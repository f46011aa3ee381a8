-- expect: pmutop: error: replay stopped: index.pmrec: damaged recording (sample 21 is not where its index says)
-- the index claims samples the chunk does not hold
UPDATE chunks SET nsamples = 100000, last_seq = first_seq + 99999;
