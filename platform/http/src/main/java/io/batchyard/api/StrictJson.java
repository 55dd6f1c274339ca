package io.batchyard.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * JSON bodies are read strictly, so bad input fails here with a 400 and never reaches the database: a fractional
 * number is not silently truncated into an integer field, a value of another JSON type is not converted, null is no
 * primitive, text after the document is an error, and no string (value or key) may contain a NUL character, which
 * PostgreSQL cannot store.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        // A value of the wrong JSON type is refused instead of converted: "12" is no number, 12 and true are no text,
        // and "" is no number or boolean.
        for (LogicalType number : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            mapper.coercionConfigFor(number).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.registerModule(new SimpleModule("batchyard-strict-strings")
                .addDeserializer(String.class, new NulFreeString())
                .addKeyDeserializer(String.class, new NulFreeKey()));
    }

    static final class NulFreeString extends StringDeserializer {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String value = super.deserialize(p, ctxt);
            if (value != null && value.indexOf('\0') >= 0) {
                return (String) ctxt.handleWeirdStringValue(String.class, "(redacted)", "text must not contain NUL");
            }
            return value;
        }
    }

    static final class NulFreeKey extends KeyDeserializer {
        @Override
        public Object deserializeKey(String key, DeserializationContext ctxt) throws IOException {
            if (key.indexOf('\0') >= 0) {
                return ctxt.handleWeirdKey(String.class, "(redacted)", "field names must not contain NUL");
            }
            return key;
        }
    }
}
