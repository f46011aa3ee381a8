-- expect: pmutop: error: replay: no sample can be read: chunk.pmrec: unknown chunk encoding
-- a chunk whose bytes are not what the codec wrote
UPDATE chunks SET data = x'28b52ffd0000deadbeef';
UPDATE tail SET data = x'00ff';
