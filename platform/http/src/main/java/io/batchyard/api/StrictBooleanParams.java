package io.batchyard.api;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Boolean path, query and header values are {@code true} or {@code false} (any case). JAX-RS would read every other
 * text, "yes" or "abc" alike, as false; here it is refused (400) like any other value of the wrong type.
 */
@Provider
public class StrictBooleanParams implements ParamConverterProvider {

    private static final ParamConverter<Boolean> STRICT = new ParamConverter<>() {
        @Override
        public Boolean fromString(String value) {
            if (value == null) {
                return null;
            }
            if (value.equalsIgnoreCase("true")) {
                return Boolean.TRUE;
            }
            if (value.equalsIgnoreCase("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("a boolean parameter must be true or false");
        }

        @Override
        public String toString(Boolean value) {
            return value == null ? null : value.toString();
        }
    };

    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        return rawType == Boolean.class || rawType == boolean.class ? (ParamConverter<T>) STRICT : null;
    }
}
