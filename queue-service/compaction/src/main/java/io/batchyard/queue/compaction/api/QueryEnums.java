package io.batchyard.queue.compaction.api;

import io.batchyard.api.CommonErrors;
import java.util.Arrays;
import java.util.Locale;

/** The state filters of compaction's lists. */
final class QueryEnums {

    private QueryEnums() {
    }

    /** An optional enum query parameter, case-insensitive; anything else is a 400 naming the allowed values. */
    static <E extends Enum<E>> E parse(Class<E> type, String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception(name + " must be one of "
                    + String.join(", ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList()));
        }
    }
}
