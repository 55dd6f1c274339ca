package io.batchyard.queue.compaction.partition;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Lifecycle of a date partition, derived from its columns: NEW (never published), LIVE (published on the live prefix),
 * CLOSED (late arrivals become delayed), SWITCHED (readers use merged manifests). The transition table is the only
 * place that says which step may move a partition where.
 */
public enum PartitionState {
    NEW, LIVE, CLOSED, SWITCHED;

    /** The steps that change a partition. */
    public enum Step {
        /** Catalog: point readers at the live prefix (current version 0). */
        PUBLISH_LIVE,
        /** Catalog or operator: freeze the live object set; later arrivals are delayed. */
        CLOSE,
        /** Catalog: merged ranges cover every live object. */
        SWITCH,
        /** Catalog: publish a newer manifest of merged objects. */
        PUBLISH_MANIFEST
    }

    private static final Map<PartitionState, Map<Step, PartitionState>> TRANSITIONS = new EnumMap<>(PartitionState.class);

    static {
        TRANSITIONS.put(NEW, Map.of(Step.PUBLISH_LIVE, LIVE, Step.CLOSE, CLOSED));
        TRANSITIONS.put(LIVE, Map.of(Step.CLOSE, CLOSED));
        // a partition closed before its first catalog run is still published on the live prefix once
        TRANSITIONS.put(CLOSED, Map.of(Step.PUBLISH_LIVE, CLOSED, Step.SWITCH, SWITCHED));
        TRANSITIONS.put(SWITCHED, Map.of(Step.PUBLISH_MANIFEST, SWITCHED));
    }

    public Optional<PartitionState> on(Step step) {
        return Optional.ofNullable(TRANSITIONS.get(this).get(step));
    }

    public boolean allows(Step step) {
        return on(step).isPresent();
    }

    public static PartitionState of(boolean switched, Long lastLiveObjectId, long currentManifestVersion) {
        if (switched) {
            return SWITCHED;
        }
        if (lastLiveObjectId != null) {
            return CLOSED;
        }
        return currentManifestVersion >= 0 ? LIVE : NEW;
    }
}
