package io.batchyard.api;

import java.util.Arrays;
import java.util.Locale;

/** Query parameters that name an enum constant, as clients write them: in any case, with spaces around ignored. */
public final class EnumParams {

    private EnumParams() {
    }

    /**
     * The constant {@code text} names; null when the parameter is absent or blank. Any other text is refused with
     * {@code invalid}, naming the parameter and every constant it may be.
     */
    public static <E extends Enum<E>> E optional(String name, String text, Class<E> type, ErrorCode invalid) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String wanted = text.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(type.getEnumConstants()).filter(c -> c.name().equals(wanted)).findFirst()
                .orElseThrow(() -> invalid.exception(name + " must be one of "
                        + Arrays.toString(type.getEnumConstants())));
    }
}
