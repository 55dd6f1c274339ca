-- Column types for the OpenLineage schema facet: column name -> type as written (PUT /tables "types", or the column
-- definitions of CREATE TABLE). A column without an entry has no known type (CTAS, or a registration without types).
ALTER TABLE table_schema
    ADD COLUMN column_types JSONB NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(column_types) = 'object');
