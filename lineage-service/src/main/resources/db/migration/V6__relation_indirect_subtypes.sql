-- In which clauses a statement read the column of an indirect relation, as OpenLineage's INDIRECT subtypes (JOIN,
-- FILTER, GROUP_BY, SORT, WINDOW, CONDITIONAL), recorded by the parse. One relation per column and table keeps all of
-- them. Relations stored before this are NULL: indirect without a known subtype.
ALTER TABLE lineage_relation
    ADD COLUMN indirect_subtypes TEXT[],
    ADD CONSTRAINT relation_indirect_subtypes_known CHECK (
        indirect_subtypes IS NULL
        OR (indirect
            AND cardinality(indirect_subtypes) BETWEEN 1 AND 6
            AND indirect_subtypes <@ ARRAY['JOIN', 'FILTER', 'GROUP_BY', 'SORT', 'WINDOW', 'CONDITIONAL']::TEXT[]));
