package io.batchyard.schemas;

/** Batch markings as HaltJob receives them from workflows. */
public final class BatchMarking {

    private BatchMarking() {
    }

    /** The reference treated the text {@code "null,"} as no marking; {@code ""} and {@code "null"} mean the same. */
    public static String normalise(String marking) {
        if (marking == null) {
            return null;
        }
        String m = marking.trim();
        return m.isEmpty() || m.equals("null") || m.equals("null,") ? null : m;
    }
}
