package io.batchyard.lineage.column;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The FROM clause of one query block: its sources by alias, in order, with the enclosing block's scope as parent so
 * correlated sub-queries resolve outer columns.
 */
final class Scope {

    /** A relation a query block reads: a base table, or a temporary one (sub-query, CTE, lateral view). */
    record Source(String name, boolean temp, List<String> columns) {

        boolean has(String column) {
            return columns != null && columns.contains(column);
        }
    }

    private final Scope parent;
    private final Map<String, Source> byAlias = new LinkedHashMap<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    void add(String alias, Source source) {
        byAlias.putIfAbsent(alias.toLowerCase(Locale.ROOT), source);
    }

    List<Source> sources() {
        return new ArrayList<>(byAlias.values());
    }

    /** By alias, then by the table's own (short or qualified) name; searching outward. */
    Source byQualifier(String qualifier) {
        String q = qualifier.toLowerCase(Locale.ROOT);
        for (Scope s = this; s != null; s = s.parent) {
            Source hit = s.byAlias.get(q);
            if (hit != null) {
                return hit;
            }
            for (Source source : s.byAlias.values()) {
                if (source.name().equals(q) || source.name().endsWith("." + q)) {
                    return source;
                }
            }
        }
        return null;
    }

    /**
     * The source of an unqualified column: the one whose known columns contain it (innermost block first); else, in
     * this block, the only source, or the only source whose columns are unknown. Null when that is still ambiguous.
     */
    Source owning(String column) {
        for (Scope s = this; s != null; s = s.parent) {
            for (Source source : s.byAlias.values()) {
                if (source.has(column)) {
                    return source;
                }
            }
        }
        List<Source> all = sources();
        if (all.size() == 1) {
            return all.get(0);
        }
        List<Source> unknown = all.stream().filter(x -> x.columns() == null).toList();
        return unknown.size() == 1 ? unknown.get(0) : null;
    }
}
