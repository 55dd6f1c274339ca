package io.batchyard.lineage.column;

/**
 * One end of a column-lineage edge as one statement sees it: a column of a (base or temporary) table, a function
 * application, a constant, or a whole table (target of an indirect edge). Function and constant endpoints carry an occurrence number, because two calls of
 * {@code upper} in one statement are two different nodes.
 */
public record Endpoint(Kind kind, String table, String name, boolean temp, int occurrence) {

    public enum Kind { COLUMN, FUNCTION, CONSTANT, TABLE }

    public static Endpoint column(String table, boolean temp, String column) {
        return new Endpoint(Kind.COLUMN, table, column, temp, 0);
    }

    /** A whole table: the end of an indirect edge (a filter or join column decides which rows it gets). */
    public static Endpoint table(String table, boolean temp) {
        return new Endpoint(Kind.TABLE, table, table, temp, 0);
    }

    public static Endpoint function(String name, int occurrence) {
        return new Endpoint(Kind.FUNCTION, null, name, false, occurrence);
    }

    public static Endpoint constant(String value, int occurrence) {
        return new Endpoint(Kind.CONSTANT, null, value, false, occurrence);
    }

    /** Corpus notation: {@code db.t.c}, {@code temp:alias.c}, {@code fn:upper}, {@code const:'x'}. */
    public String notation() {
        return switch (kind) {
            case COLUMN -> (temp ? "temp:" : "") + table + "." + name;
            case FUNCTION -> "fn:" + name;
            case CONSTANT -> "const:" + name;
            case TABLE -> (temp ? "temp:" : "") + table;
        };
    }
}
