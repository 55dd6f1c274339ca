-- Process ids come from two disjoint ranges: 1..99,999,999 may be chosen by clients (POST /processes with an id,
-- for imports and fixtures); the generator owns 100,000,000 and above. Earlier, every chosen id moved the generator
-- past it, so one request with id 2^63-1 exhausted the sequence and every later registration failed. Now no chosen id
-- moves the sequence, and no generated id can collide with a chosen one because the generator cannot go below its
-- minimum.
--
-- The generator restarts above every id already taken, except ids from 2^62 up: only a client can have chosen those,
-- and counting them would leave an exhausted sequence exhausted.
SELECT setval(pg_get_serial_sequence('process', 'process_id'),
              GREATEST(100000000, (SELECT max(process_id) + 1 FROM process WHERE process_id < 4611686018427387904)),
              false);
ALTER TABLE process ALTER COLUMN process_id SET START WITH 100000000 SET MINVALUE 100000000;
