package io.batchyard.api;

/**
 * The one rule for ids a client may choose (batch ids in queue-service, process ids in registry-service): the id
 * space is split in two disjoint ranges. Ids from 1 to {@code FIRST_GENERATED_ID - 1} may be chosen by clients
 * (imports, upstream systems that number their own batches, fixtures); the database generator owns
 * {@code FIRST_GENERATED_ID} and above (each sequence's minimum, set by a migration). A chosen id therefore never
 * collides with a generated one and never has to move the shared sequence: syncing the sequence to a chosen id let
 * a single request with id 2^63-1 exhaust it for every later caller.
 *
 * <p>The split is low enough that generated ids stay below 2^31 for the next two billion rows.
 */
public final class ChosenIds {

    /** The generators' first id. */
    public static final long FIRST_GENERATED_ID = 100_000_000L;

    private ChosenIds() {
    }

    /** True for an id a client may give a new row. */
    public static boolean choosable(long id) {
        return id > 0 && id < FIRST_GENERATED_ID;
    }

    /** The detail of a refusal, naming the range. */
    public static String outOfRange(String what, long id) {
        return what + " " + id + " cannot be chosen: chosen ids run from 1 to " + (FIRST_GENERATED_ID - 1)
                + ", larger ids are generated";
    }
}
