package io.batchyard.lineage.schema;

import static io.batchyard.lineage.LineageError.INVALID_NAME;

import io.batchyard.lineage.column.ColumnLineageExtractor;
import java.util.Locale;
import java.util.regex.Pattern;

/** A qualified, lower-case table name {@code db.table}, as Hive (case-insensitive) and the column graph use it. */
public record TableName(String database, String table) {

    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_$]{1,128}");

    /** {@code db.table}, or {@code table} in the {@code default} database; anything else is a 400. */
    public static TableName parse(String text) {
        if (text == null || text.isBlank()) {
            throw INVALID_NAME.exception("a table name is required (db.table)");
        }
        String[] parts = text.strip().replace("`", "").split("\\.", -1);
        if (parts.length > 2 || !PART.matcher(parts[parts.length - 1]).matches()
                || (parts.length == 2 && !PART.matcher(parts[0]).matches())) {
            throw INVALID_NAME.exception("'" + abbreviate(text) + "' is not a table name of the form db.table "
                    + "(letters, digits, _ and $)");
        }
        String db = parts.length == 2 ? parts[0] : ColumnLineageExtractor.DEFAULT_DATABASE;
        return new TableName(db.toLowerCase(Locale.ROOT), parts[parts.length - 1].toLowerCase(Locale.ROOT));
    }

    /** A column name: same rules as one part of a table name. */
    public static String column(String text) {
        if (text == null || !PART.matcher(text.strip().replace("`", "")).matches()) {
            throw INVALID_NAME.exception("'" + abbreviate(String.valueOf(text)) + "' is not a column name");
        }
        return text.strip().replace("`", "").toLowerCase(Locale.ROOT);
    }

    public String qualified() {
        return database + "." + table;
    }

    @Override
    public String toString() {
        return qualified();
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
