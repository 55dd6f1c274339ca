-- Batch ids come from two disjoint ranges: 1..99,999,999 may be chosen by clients (POST /batches with a batchId,
-- for imports and upstream systems that number their own batches); the generator owns 100,000,000 and above.
-- Earlier, every client-chosen id moved the generator past it, so one request with id 2^63-1 exhausted the sequence
-- and every later run and batch registration failed. Now no client id moves the sequence, and no generated id can
-- collide with a client's because the generator cannot go below its minimum.
--
-- The generator restarts above every id already taken, except ids from 2^62 up: only a client can have chosen those
-- (the generator would need 4.6e18 batches to get there), and counting them would leave an exhausted sequence
-- exhausted.
SELECT setval(pg_get_serial_sequence('batch', 'batch_id'),
              GREATEST(100000000, (SELECT max(batch_id) + 1 FROM batch WHERE batch_id < 4611686018427387904)),
              false);
ALTER TABLE batch ALTER COLUMN batch_id SET START WITH 100000000 SET MINVALUE 100000000;
