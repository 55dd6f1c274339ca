package io.batchyard.registry.catalog;

/** A process type; {@code parentTypeId} null means it is for parent processes only. */
public record ProcessType(int id, String name, Integer parentTypeId) {

    public boolean forParents() {
        return parentTypeId == null || parentTypeId == 0;
    }
}
