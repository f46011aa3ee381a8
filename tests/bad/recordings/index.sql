-- expect: pmutop: error: replay: no sample can be read: index.pmrec: damaged recording (a chunk's index spans 100000 samples; a chunk holds 1 to 60)
-- the index claims samples the chunk does not hold: more than a chunk holds, refused before decoding
UPDATE chunks SET nsamples = 100000, last_seq = first_seq + 99999;
