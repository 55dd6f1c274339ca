package io.batchyard.lineage.graph;

import io.batchyard.lineage.access.Readable;
import io.batchyard.persistence.InOrder;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Walks the column graph from a node, up- or downstream. */
@ApplicationScoped
public class ColumnGraphReader {

    private final ColumnGraphRepository graph;

    public ColumnGraphReader(ColumnGraphRepository graph) {
        this.graph = graph;
    }

    /**
     * Breadth-first from {@code start}. Depth counts hops between columns: passing through a function, constant or
     * table node costs nothing, so {@code depth=1} reaches the columns one transformation away. Indirect relations
     * end at a table: upstream of a column includes those into its table, and downstream of a table continues from
     * its columns. Only relations of queries of processes {@code reader} may read are followed.
     */
    public Uni<ColumnGraph> walk(Collection<Long> start, Direction direction, int depth, Readable reader) {
        Walk walk = new Walk(start, direction, depth, reader);
        // One node per round, each round after the previous one's statements: the stream keeps the stack flat.
        return Multi.createBy().repeating().uni(walk::next).until(more -> !more)
                .collect().last()
                .chain(() -> {
                    Set<Long> ids = new LinkedHashSet<>(walk.seen.keySet());
                    walk.edges.values().forEach(e -> {
                        ids.add(e.from());
                        ids.add(e.to());
                    });
                    // Columns are drawn inside their tables, so the tables come along.
                    return graph.containersOf(ids).chain(tables -> {
                        ids.addAll(tables);
                        return graph.nodes(ids);
                    });
                })
                .map(nodes -> new ColumnGraph(nodes, new ArrayList<>(walk.edges.values())));
    }

    /** A node the walk has reached, and at which depth. */
    private record Reached(long node, int depth) {
    }

    /** One walk's state: the depth at which each node was first reached, the queue, and the relations met. */
    private final class Walk {
        final Map<Long, Integer> seen = new HashMap<>();
        final Map<UUID, ColumnGraph.Edge> edges = new LinkedHashMap<>();
        final Deque<Reached> queue = new ArrayDeque<>();
        final List<Direction> directions;
        final int depth;
        final Readable reader;

        Walk(Collection<Long> start, Direction direction, int depth, Readable reader) {
            this.depth = depth;
            this.reader = reader;
            this.directions = direction == Direction.BOTH
                    ? List.of(Direction.UPSTREAM, Direction.DOWNSTREAM) : List.of(direction);
            for (long s : start) {
                seen.put(s, 0);
                queue.add(new Reached(s, 0));
            }
        }

        /** Expands the next node within the depth; false when nothing is left to expand. */
        Uni<Boolean> next() {
            Reached current = queue.poll();
            while (current != null && current.depth() >= depth) {
                current = queue.poll();
            }
            if (current == null) {
                return Uni.createFrom().item(Boolean.FALSE);
            }
            Reached at = current;
            return InOrder.each(directions, d -> graph.hops(at.node(), d, reader).invoke(hops -> follow(at, d, hops)))
                    .replaceWith(Boolean.TRUE);
        }

        private void follow(Reached at, Direction d, List<ColumnGraphRepository.Hop> hops) {
            for (ColumnGraphRepository.Hop hop : hops) {
                ColumnGraph.Edge e = hop.edge();
                edges.putIfAbsent(e.id(), e);
                long other = d == Direction.UPSTREAM ? e.from() : e.to();
                if (!seen.containsKey(other)) {
                    NodeType type = d == Direction.UPSTREAM ? hop.fromType() : hop.toType();
                    int cost = type.isColumn() ? 1 : 0;
                    seen.put(other, at.depth() + cost);
                    queue.add(new Reached(other, at.depth() + cost));
                }
            }
        }
    }
}
