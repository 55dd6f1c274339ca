-- queue-service: small objects the mergeable-delay window holds back. A registration outside its table's window makes
-- no merge job: the object is registered and stored all the same, and held, either
--   WAITING: its date lies ahead of the window, or behind it while its partition is not published yet; the catalog
--            step makes the partition's merge job once the window reaches the date (time passing, or a wider window);
--   LATE:    its partition is published already and its date lies behind the window; merges leave it out (a range
--            may cover its id, with none of its records, as for a quarantined object) until an operator's rebuild
--            takes it in, which clears the mark.
-- NULL: not held.
ALTER TABLE small_object ADD COLUMN hold TEXT CHECK (hold IN ('WAITING', 'LATE'));
-- A late object is stored under delayed/ whatever its partition's closed state: the live prefix, which readers of a
-- partition published at version 0 read, must not show what merges leave out, and closing must not wait for it.
ALTER TABLE small_object ADD CONSTRAINT small_object_late_is_delayed CHECK (hold IS DISTINCT FROM 'LATE' OR delayed);
-- the catalog step looks for partitions with waiting objects, and partitions count their late ones
CREATE INDEX small_object_held ON small_object (partition_id, hold) WHERE hold IS NOT NULL;
