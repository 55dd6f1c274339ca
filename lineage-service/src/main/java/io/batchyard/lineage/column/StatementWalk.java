package io.batchyard.lineage.column;

import static io.batchyard.lineage.column.HiveSqlNormaliser.unquote;

import io.batchyard.lineage.column.Scope.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Partition;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralView;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The walk over one parsed statement (see {@link ColumnLineageExtractor} for the rules): every query block writes one
 * table, and its select items become edges into that table's columns.
 */
final class StatementWalk {

    /** How one output column of a query block is derived (one entry per UNION branch). */
    private sealed interface Derivation {
    }

    private record Direct(Endpoint column) implements Derivation {
    }

    private record Constant(String value) implements Derivation {
    }

    private record Computed(String function, List<Endpoint> inputs) implements Derivation {
    }

    private record Produced(String label, List<Derivation> derivations) {
    }

    /**
     * What a query block yields: its select items, and the columns its JOIN ... ON, WHERE, HAVING, GROUP BY, ORDER BY,
     * windows and CASE/IF conditions read, each with the clauses that read it. Those decide which rows reach the
     * target (or in which order, or which branch of a value), so they become indirect edges into the target table.
     */
    private record Block(List<Produced> items, Map<Endpoint, Set<IndirectClause>> filters) {
    }

    /** Where a query block's rows go. {@code columns} null: by label; {@code dynamicPartitions} take the last items. */
    private record Target(String table, boolean temp, List<String> columns, List<String> dynamicPartitions) {
    }

    private static final Set<String> VIRTUAL_COLUMNS = Set.of("input__file__name", "block__offset__inside__file",
            "row__offset__inside__block", "raw__data__size", "grouping__id", "row__id");

    private final int index;
    private final String sql;
    private final String database;
    private final TableSchemas schemas;
    private final Map<String, TableUse> tables = new LinkedHashMap<>();
    private final List<ColumnEdge> edges = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final AtomicInteger occurrences = new AtomicInteger();
    private final Map<String, Integer> tempNames = new HashMap<>();
    private String learnedTable;
    private List<String> learnedColumns;
    private Map<String, String> learnedTypes = Map.of();

    StatementWalk(int index, String sql, String database, TableSchemas schemas) {
        this.index = index;
        this.sql = sql;
        this.database = database;
        this.schemas = schemas;
    }

    /**
     * The lineage of a statement, or of the inserts a multi-insert was rewritten into: walked together, so a source
     * column used by any of them is not idle and each function call stays its own node.
     */
    StatementLineage statements(List<Statement> statements) {
        statements.forEach(this::walk);
        return new StatementLineage(index, sql, List.copyOf(tables.values()), List.copyOf(edges),
                List.copyOf(warnings), learnedTable, learnedColumns, learnedTypes, null, database, false);
    }

    private void walk(Statement statement) {
        if (statement instanceof Insert insert) {
            insert(insert);
        } else if (statement instanceof CreateTable create) {
            createTable(create);
        } else if (statement instanceof CreateView view) {
            String name = qualify(view.getView());
            List<String> columns = view.getColumnNames() == null ? null
                    : view.getColumnNames().stream().map(c -> name(c.getColumnName())).toList();
            learn(name, emit(new Target(name, false, columns, List.of()), select(view.getSelect(), null, Map.of())));
        } else if (statement instanceof Select select) {
            emit(new Target(tempName("_result"), true, null, List.of()), select(select, null, Map.of()));
        } else {
            warnings.add(statement.getClass().getSimpleName() + " has no column lineage");
        }
    }

    private void insert(Insert insert) {
        String target = qualify(insert.getTable());
        if (insert.getSelect() == null || insert.getSelect() instanceof net.sf.jsqlparser.statement.select.Values) {
            use(target, false, true, schemas.columns(target).orElse(null));
            warnings.add("INSERT ... VALUES has no column lineage");
            return;
        }
        Map<String, Source> ctes = ctes(insert.getWithItemsList(), Map.of());
        List<String> known = schemas.columns(target).orElse(null);
        List<String> columns = insert.getColumns() == null ? known
                : insert.getColumns().stream().map(c -> name(c.getColumnName())).toList();
        List<String> dynamic = new ArrayList<>();
        List<Partition> partitions = insert.getPartitions() == null ? List.of() : insert.getPartitions();
        Set<String> partitionNames = new java.util.HashSet<>();
        for (Partition p : partitions) {
            partitionNames.add(name(p.getColumn().getColumnName()));
        }
        if (columns != null && !partitions.isEmpty()) {
            columns = new ArrayList<>(columns.stream().filter(c -> !partitionNames.contains(c)).toList());
        }
        for (Partition p : partitions) {
            String column = name(p.getColumn().getColumnName());
            if (p.getValue() == null) {
                dynamic.add(column);
                if (columns != null) {
                    columns.add(column);
                }
            } else {
                // A static partition value is a constant written into the partition column.
                edge(Endpoint.constant(p.getValue().toString(), occurrences.incrementAndGet()),
                        Endpoint.column(target, false, column));
            }
        }
        emit(new Target(target, false, columns, dynamic), select(insert.getSelect(), null, ctes));
        tables.get(target).usedColumns().addAll(partitionNames);
    }

    private void createTable(CreateTable create) {
        String name = qualify(create.getTable());
        if (create.getSelect() != null) {
            List<String> columns = create.getColumns() == null || create.getColumns().isEmpty() ? null
                    : create.getColumns().stream().map(this::name).toList();
            learn(name, emit(new Target(name, false, columns, List.of()), select(create.getSelect(), null, Map.of())));
            return;
        }
        if (create.getColumnDefinitions() == null || create.getColumnDefinitions().isEmpty()) {
            warnings.add("CREATE TABLE without columns has no column lineage");
            return;
        }
        List<String> columns = create.getColumnDefinitions().stream()
                .map(ColumnDefinition::getColumnName).map(this::name).toList();
        use(name, false, true, columns);
        learn(name, columns);
        // The types as written (Hive's own words: bigint, decimal(10,2), array<string>), for OpenLineage's schema facet.
        Map<String, String> types = new java.util.LinkedHashMap<>();
        for (ColumnDefinition d : create.getColumnDefinitions()) {
            if (d.getColDataType() != null) {
                // JSqlParser prints DECIMAL (10, 2); Hive's own spelling has no blanks: decimal(10,2).
                types.put(name(d.getColumnName()), d.getColDataType().toString().replaceAll("\\s+", "")
                        .toLowerCase(Locale.ROOT));
            }
        }
        learnedTypes = Map.copyOf(types);
    }

    private void learn(String table, List<String> columns) {
        learnedTable = table;
        learnedColumns = List.copyOf(columns);
    }

    // ---- query blocks ------------------------------------------------------------------------------------

    private Map<String, Source> ctes(List<WithItem<?>> with, Map<String, Source> visible) {
        if (with == null || with.isEmpty()) {
            return visible;
        }
        Map<String, Source> ctes = new HashMap<>(visible);
        for (WithItem<?> item : with) {
            String alias = name(item.getAliasName());
            List<String> declared = item.getWithItemList() == null ? null
                    : item.getWithItemList().stream().map(i -> name(i.toString())).toList();
            String temp = tempName(alias);
            Select body = item.getSelect();
            List<String> columns = emit(new Target(temp, true, declared, List.of()), select(body, null, ctes));
            ctes.put(alias, new Source(temp, true, columns));
        }
        return ctes;
    }

    private Block select(Select select, Scope outer, Map<String, Source> visible) {
        Map<String, Source> ctes = ctes(select.getWithItemsList(), visible);
        if (select instanceof ParenthesedSelect p) {
            return select(p.getSelect(), outer, ctes);
        }
        if (select instanceof SetOperationList union) {
            List<Produced> merged = null;
            Map<Endpoint, Set<IndirectClause>> filters = new LinkedHashMap<>();
            for (Select branch : union.getSelects()) {
                Block block = select(branch, outer, ctes);
                merged = merged == null ? new ArrayList<>(block.items()) : mergePositionally(merged, block.items());
                block.filters().forEach((f, clauses) -> read(filters, f, clauses));
            }
            return new Block(merged == null ? List.of() : merged, filters);
        }
        if (select instanceof PlainSelect plain) {
            return plain(plain, outer, ctes);
        }
        throw new IllegalArgumentException(select.getClass().getSimpleName() + " as a query");
    }

    /** UNION: the first branch names the columns; every branch feeds them by position. */
    private List<Produced> mergePositionally(List<Produced> first, List<Produced> next) {
        if (first.size() != next.size()) {
            warnings.add("UNION branches have " + first.size() + " and " + next.size() + " columns");
        }
        List<Produced> merged = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
            List<Derivation> all = new ArrayList<>(first.get(i).derivations());
            if (i < next.size()) {
                all.addAll(next.get(i).derivations());
            }
            merged.add(new Produced(first.get(i).label(), all));
        }
        return merged;
    }

    private Block plain(PlainSelect select, Scope outer, Map<String, Source> ctes) {
        Scope scope = new Scope(outer);
        Map<Endpoint, Set<IndirectClause>> filters = new LinkedHashMap<>();
        java.util.function.BiConsumer<Expression, IndirectClause> filter = (e, clause) -> inputs(e, scope, ctes)
                .forEach(f -> read(filters, f, Set.of(clause)));
        if (select.getFromItem() != null) {
            from(select.getFromItem(), scope, ctes);
        }
        if (select.getJoins() != null) {
            for (Join join : select.getJoins()) {
                from(join.getFromItem(), scope, ctes);
            }
            for (Join join : select.getJoins()) {
                if (join.getOnExpressions() != null) {
                    join.getOnExpressions().forEach(e -> filter.accept(e, IndirectClause.JOIN));
                }
                if (join.getUsingColumns() != null) {
                    join.getUsingColumns().forEach(c -> scope.sources().forEach(s -> markUsed(s, name(c.getColumnName()))));
                }
            }
        }
        if (select.getLateralViews() != null) {
            for (LateralView view : select.getLateralViews()) {
                lateralView(view, scope, ctes);
            }
        }
        filter.accept(select.getWhere(), IndirectClause.FILTER);
        filter.accept(select.getHaving(), IndirectClause.FILTER);
        if (select.getGroupBy() != null && select.getGroupBy().getGroupByExpressionList() != null) {
            select.getGroupBy().getGroupByExpressionList()
                    .forEach(e -> filter.accept((Expression) e, IndirectClause.GROUP_BY));
        }
        List<Produced> produced = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllTableColumns all) {
                Source source = scope.byQualifier(name(all.getTable().getName()));
                if (source == null) {
                    warnings.add("unknown table alias " + all.getTable());
                } else {
                    expand(source, produced);
                }
            } else if (e instanceof AllColumns) {
                scope.sources().forEach(s -> expand(s, produced));
            } else {
                String label = item.getAlias() != null ? name(item.getAlias().getName())
                        : e instanceof Column c ? name(c.getColumnName()) : "_c" + produced.size();
                produced.add(new Produced(label, List.of(derive(e, scope, ctes))));
                conditionsAndWindows(e, filter);
            }
        }
        if (select.getOrderByElements() != null) {
            // ORDER BY may name a select item by its label (Hive looks there first): the rows are then sorted by
            // the columns that item is made of, not by a column of an input table of that name.
            Map<String, Produced> labels = new HashMap<>();
            produced.forEach(p -> labels.putIfAbsent(p.label(), p));
            for (OrderByElement order : select.getOrderByElements()) {
                Expression e = order.getExpression();
                Produced item = e instanceof Column c && c.getTable() == null ? labels.get(name(c.getColumnName()))
                        : null;
                if (item != null) {
                    for (Derivation d : item.derivations()) {
                        if (d instanceof Direct direct) {
                            read(filters, direct.column(), Set.of(IndirectClause.SORT));
                        } else if (d instanceof Computed computed) {
                            computed.inputs().forEach(in -> read(filters, in, Set.of(IndirectClause.SORT)));
                        }
                    }
                } else if (!isLiteral(e)) {
                    filter.accept(e, IndirectClause.SORT);
                }
            }
        }
        return new Block(produced, filters);
    }

    /** {@code *}: every known column of the source; unknown columns cannot be expanded, which is reported. */
    private void expand(Source source, List<Produced> produced) {
        if (source.columns() == null) {
            warnings.add("columns of " + source.name() + " are unknown: * not expanded (register the table schema)");
            return;
        }
        for (String column : source.columns()) {
            markUsed(source, column);
            produced.add(new Produced(column, List.of(new Direct(Endpoint.column(source.name(), source.temp(), column)))));
        }
    }

    private void from(FromItem item, Scope scope, Map<String, Source> ctes) {
        if (item instanceof Table table) {
            String short_ = name(table.getName());
            Source source;
            if (table.getSchemaName() == null && ctes.containsKey(short_)) {
                source = ctes.get(short_);
            } else {
                String qualified = qualify(table);
                List<String> columns = schemas.columns(qualified).orElse(null);
                use(qualified, false, false, columns);
                source = new Source(qualified, false, columns);
            }
            scope.add(alias(table.getAlias(), short_), source);
        } else if (item instanceof ParenthesedSelect sub) {
            String alias = alias(sub.getAlias(), "_subquery");
            String temp = tempName(alias);
            List<String> columns = emit(new Target(temp, true, null, List.of()), select(sub.getSelect(), null, ctes));
            scope.add(alias, new Source(temp, true, columns));
        } else if (item instanceof ParenthesedFromItem nested) {
            from(nested.getFromItem(), scope, ctes);
            if (nested.getJoins() != null) {
                for (Join join : nested.getJoins()) {
                    from(join.getFromItem(), scope, ctes);
                    if (join.getOnExpressions() != null) {
                        join.getOnExpressions().forEach(e -> inputs(e, scope, ctes));
                    }
                }
            }
        } else {
            throw new IllegalArgumentException(item.getClass().getSimpleName() + " in FROM");
        }
    }

    /** {@code LATERAL VIEW explode(t.arr) e AS item}: a temporary table e whose columns come from the function. */
    private void lateralView(LateralView view, Scope scope, Map<String, Source> ctes) {
        Function generator = view.getGeneratorFunction();
        List<Endpoint> inputs = inputs(generator, scope, ctes);
        String alias = alias(view.getTableAlias(), "_lateral");
        List<String> columns = new ArrayList<>();
        Alias columnAlias = view.getColumnAlias();
        if (columnAlias != null && columnAlias.getAliasColumns() != null && !columnAlias.getAliasColumns().isEmpty()) {
            columnAlias.getAliasColumns().forEach(c -> columns.add(name(c.name)));
        } else if (columnAlias != null && columnAlias.getName() != null) {
            columns.add(name(columnAlias.getName()));
        } else {
            columns.add("col");
        }
        String temp = tempName(alias);
        use(temp, true, true, columns);
        List<Produced> produced = columns.stream()
                .map(c -> new Produced(c, List.<Derivation>of(new Computed(name(generator.getName()), inputs)))).toList();
        emit(new Target(temp, true, columns, List.of()), new Block(produced, Map.of()));
        scope.add(alias, new Source(temp, true, columns));
    }

    // ---- expressions -------------------------------------------------------------------------------------

    private Derivation derive(Expression e, Scope scope, Map<String, Source> ctes) {
        while (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
            e = list.get(0);
        }
        if (e instanceof Column c && isVirtual(c)) {
            // A virtual column is made by Hive while it reads (file name, offset, grouping set id): a built-in with
            // no source column, never a column of the table it is read from.
            return new Computed(name(c.getColumnName()), List.of());
        }
        if (e instanceof Column c) {
            Endpoint column = resolve(c, scope);
            // An unresolvable column (already warned about) has no source; TRUE/FALSE parse as columns too.
            return column != null ? new Direct(column)
                    : Set.of("true", "false").contains(name(c.getColumnName())) ? new Constant(c.toString())
                    : new Computed("unresolved", List.of());
        }
        if (isLiteral(e)) {
            return new Constant(e.toString());
        }
        return new Computed(functionName(e), inputs(e, scope, ctes));
    }

    private static boolean isLiteral(Expression e) {
        if (e instanceof SignedExpression s) {
            return isLiteral(s.getExpression());
        }
        return e instanceof StringValue || e instanceof LongValue || e instanceof DoubleValue
                || e instanceof NullValue || e instanceof BooleanValue || e instanceof DateValue
                || e instanceof TimestampValue || e instanceof HexValue;
    }

    private static String functionName(Expression e) {
        if (e instanceof Function f) {
            return f.getName().toLowerCase(Locale.ROOT);
        }
        if (e instanceof AnalyticExpression a) {
            return a.getName().toLowerCase(Locale.ROOT);
        }
        if (e instanceof CaseExpression) {
            return "case";
        }
        if (e instanceof TimeKeyExpression t) {
            return t.getStringValue().toLowerCase(Locale.ROOT).replace("()", "");
        }
        if (e instanceof CastExpression) {
            return "cast";
        }
        if (e instanceof BinaryExpression b) {
            return b.getStringExpression().toLowerCase(Locale.ROOT);
        }
        return e.getClass().getSimpleName().toLowerCase(Locale.ROOT).replace("expression", "");
    }

    /** Every column referenced inside {@code e}, resolved; scalar sub-queries contribute their inputs. */
    private List<Endpoint> inputs(Expression e, Scope scope, Map<String, Source> ctes) {
        List<Endpoint> found = new ArrayList<>();
        if (e == null) {
            return found;
        }
        e.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column column, S context) {
                Endpoint endpoint = resolve(column, scope);
                if (endpoint != null && !found.contains(endpoint)) {
                    found.add(endpoint);
                }
                return null;
            }

            @Override
            public <S> Void visit(ParenthesedSelect sub, S context) {
                return visit((Select) sub, context);
            }

            @Override
            public <S> Void visit(Select sub, S context) {
                Block block = select(sub, scope, ctes);
                block.filters().keySet().stream().filter(x -> !found.contains(x)).forEach(found::add);
                for (Produced p : block.items()) {
                    for (Derivation d : p.derivations()) {
                        if (d instanceof Direct direct && !found.contains(direct.column())) {
                            found.add(direct.column());
                        } else if (d instanceof Computed c) {
                            c.inputs().stream().filter(x -> !found.contains(x)).forEach(found::add);
                        }
                    }
                }
                return null;
            }
        }, null);
        return found;
    }

    /**
     * The column's own table: by its qualifier (alias or table name), else the source that has it. A qualifier
     * that names no source is a struct field access ({@code s.field}) when a source has that column.
     */
    private Endpoint resolve(Column c, Scope scope) {
        if (isVirtual(c)) {
            return null;
        }
        String column = name(c.getColumnName());
        Table qualifier = c.getTable();
        Source source = null;
        if (qualifier != null && qualifier.getName() != null) {
            source = scope.byQualifier(name(qualifier.getName()));
            if (source == null && qualifier.getSchemaName() != null) {
                // alias.struct_column.field: the lineage is the struct column of that alias
                Source owner = scope.byQualifier(name(qualifier.getSchemaName()));
                if (owner != null) {
                    column = name(qualifier.getName());
                    source = owner;
                }
            }
            if (source == null) {
                Source owner = scope.owning(name(qualifier.getName()));
                if (owner != null && owner.has(name(qualifier.getName()))) {
                    column = name(qualifier.getName());
                    source = owner;
                }
            }
            if (source == null) {
                warnings.add("unknown table or alias " + qualifier + " for column " + column);
                return null;
            }
        } else {
            if (Set.of("true", "false").contains(column)) {
                return null;
            }
            source = scope.owning(column);
            if (source == null) {
                List<Source> all = scope.sources();
                if (all.isEmpty()) {
                    warnings.add("column " + column + " has no input table");
                    return null;
                }
                source = all.get(0);
                warnings.add("ambiguous column " + column + ": bound to " + source.name()
                        + " (qualify it, or register the input table schemas)");
            }
        }
        markUsed(source, column);
        return Endpoint.column(source.name(), source.temp(), column);
    }

    /** Hive's virtual columns, bare or behind a table alias; no table has a real column of these names. */
    private boolean isVirtual(Column c) {
        return VIRTUAL_COLUMNS.contains(name(c.getColumnName()));
    }

    private void markUsed(Source source, String column) {
        TableUse use = tables.get(source.name());
        if (use != null) {
            use.usedColumns().add(column);
        }
    }

    // ---- output ------------------------------------------------------------------------------------------

    /**
     * Writes a block's select items into the target's columns, and its filter columns into the target table
     * (indirect edges); returns the target column names in order.
     */
    private List<String> emit(Target target, Block block) {
        List<Produced> produced = block.items();
        List<String> known = target.temp() ? null : schemas.columns(target.table()).orElse(null);
        List<String> written = new ArrayList<>();
        int n = produced.size();
        int firstDynamic = n - target.dynamicPartitions().size();
        for (int i = 0; i < n; i++) {
            Produced p = produced.get(i);
            String column;
            if (target.columns() != null) {
                column = i < target.columns().size() ? target.columns().get(i) : p.label();
                if (i >= target.columns().size()) {
                    warnings.add(target.table() + " has " + target.columns().size() + " columns but the query writes "
                            + n + "; extra item " + p.label() + " mapped by name");
                }
            } else if (i >= firstDynamic && firstDynamic >= 0) {
                column = target.dynamicPartitions().get(i - firstDynamic);
            } else {
                column = p.label();
            }
            written.add(column);
            Endpoint to = Endpoint.column(target.table(), target.temp(), column);
            for (Derivation d : p.derivations()) {
                if (d instanceof Direct direct) {
                    edge(direct.column(), to);
                } else if (d instanceof Constant constant) {
                    edge(Endpoint.constant(constant.value(), occurrences.incrementAndGet()), to);
                } else if (d instanceof Computed computed) {
                    Endpoint fn = Endpoint.function(computed.function(), occurrences.incrementAndGet());
                    computed.inputs().forEach(in -> edge(in, fn));
                    edge(fn, to);
                }
            }
        }
        TableUse use = use(target.table(), target.temp(), true, target.temp() ? written : known);
        use.usedColumns().addAll(written);
        Endpoint table = Endpoint.table(target.table(), target.temp());
        block.filters().forEach((f, clauses) -> {
            // One edge per column and table: a column read by several clauses (a multi-insert's targets share the
            // source's clauses too) gets them all on that edge.
            for (int i = 0; i < edges.size(); i++) {
                ColumnEdge e = edges.get(i);
                if (e.indirect() && e.from().equals(f) && e.to().equals(table)) {
                    Set<IndirectClause> all = java.util.EnumSet.copyOf(clauses);
                    all.addAll(e.clauses());
                    edges.set(i, ColumnEdge.indirect(f, table, all));
                    return;
                }
            }
            edges.add(ColumnEdge.indirect(f, table, clauses));
        });
        return written;
    }

    private static void read(Map<Endpoint, Set<IndirectClause>> filters, Endpoint column,
                             Set<IndirectClause> clauses) {
        filters.computeIfAbsent(column, k -> java.util.EnumSet.noneOf(IndirectClause.class)).addAll(clauses);
    }

    /**
     * The columns a select item reads in a window's PARTITION BY / ORDER BY and in CASE ... WHEN or IF conditions:
     * besides feeding the item's function node, they decide how its value is made (OpenLineage's WINDOW and
     * CONDITIONAL). Sub-queries inside the item are not entered: their own blocks record their clauses.
     */
    private void conditionsAndWindows(Expression item, java.util.function.BiConsumer<Expression, IndirectClause> read) {
        item.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(AnalyticExpression window, S context) {
                if (window.getPartitionExpressionList() != null) {
                    window.getPartitionExpressionList().forEach(p -> read.accept((Expression) p, IndirectClause.WINDOW));
                }
                if (window.getOrderByElements() != null) {
                    window.getOrderByElements().forEach(o -> read.accept(o.getExpression(), IndirectClause.WINDOW));
                }
                return super.visit(window, context);
            }

            @Override
            public <S> Void visit(CaseExpression expression, S context) {
                if (expression.getSwitchExpression() != null) {
                    read.accept(expression.getSwitchExpression(), IndirectClause.CONDITIONAL);
                }
                expression.getWhenClauses().forEach(w -> read.accept(w.getWhenExpression(), IndirectClause.CONDITIONAL));
                return super.visit(expression, context);
            }

            @Override
            public <S> Void visit(Function function, S context) {
                if ("if".equalsIgnoreCase(function.getName()) && function.getParameters() != null
                        && !function.getParameters().isEmpty()) {
                    read.accept((Expression) function.getParameters().get(0), IndirectClause.CONDITIONAL);
                }
                return super.visit(function, context);
            }

            @Override
            public <S> Void visit(ParenthesedSelect sub, S context) {
                return null;
            }

            @Override
            public <S> Void visit(Select sub, S context) {
                return null;
            }
        }, null);
    }

    private void edge(Endpoint from, Endpoint to) {
        // Same table and column on both sides (INSERT INTO t SELECT c FROM t) is no lineage: the reference drops it.
        if (!from.equals(to)) {
            ColumnEdge edge = new ColumnEdge(from, to);
            if (!edges.contains(edge)) {
                edges.add(edge);
            }
        }
    }

    private TableUse use(String name, boolean temp, boolean output, List<String> columns) {
        TableUse existing = tables.get(name);
        if (existing == null || (output && !existing.output())) {
            TableUse use = TableUse.of(name, temp, output, columns);
            if (existing != null) {
                use.usedColumns().addAll(existing.usedColumns());
            }
            tables.put(name, use);
            return use;
        }
        return existing;
    }

    // ---- names -------------------------------------------------------------------------------------------

    private String qualify(Table table) {
        String schema = table.getSchemaName() == null ? database : name(table.getSchemaName());
        return schema + "." + name(table.getName());
    }

    /** A unique temporary table name in this statement: the alias, suffixed when an alias repeats. */
    private String tempName(String alias) {
        int seen = tempNames.merge(alias, 1, Integer::sum);
        return seen == 1 ? alias : alias + "_" + seen;
    }

    private String alias(Alias alias, String fallback) {
        return alias == null || alias.getName() == null ? fallback : name(alias.getName());
    }

    private String name(String identifier) {
        return unquote(identifier).toLowerCase(Locale.ROOT);
    }
}
