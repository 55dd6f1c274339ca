-- A correlation id names a call or a command; it is never a payload. The services keep a caller's X-Request-Id only
-- when it has this form (and put a generated one in its place otherwise), so a refused or anonymous caller cannot
-- make every entry carry kilobytes. Rows written before this rule are left as they are (NOT VALID) until the
-- trail's retention removes them; every row written from now on is checked.
ALTER TABLE audit_entry ADD CONSTRAINT audit_entry_correlation_id_form
    CHECK (correlation_id ~ '^[A-Za-z0-9._:-]{1,128}$') NOT VALID;
