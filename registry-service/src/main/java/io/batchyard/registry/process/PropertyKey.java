package io.batchyard.registry.process;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A property key (of a process or a property template) as a request names it. {@link PropertyRow#whyKeyRefused}
 * holds the rule; this only lets bean validation answer a refused key as the invalid field it is (400, code 1, the
 * reason in {@code errors[]}) before any service runs.
 */
@Documented
@Target({PARAMETER, FIELD})
@Retention(RUNTIME)
@Constraint(validatedBy = PropertyKey.Validator.class)
public @interface PropertyKey {

    String message() default "invalid property key";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Applies {@link PropertyRow#whyKeyRefused}, with its reason as the violation's message. */
    class Validator implements ConstraintValidator<PropertyKey, String> {

        @Override
        public boolean isValid(String key, ConstraintValidatorContext context) {
            return PropertyRow.whyKeyRefused(key).map(why -> {
                context.disableDefaultConstraintViolation();
                // The reasons are fixed texts without '{' or '$', so they pass message interpolation unchanged.
                context.buildConstraintViolationWithTemplate(why).addConstraintViolation();
                return false;
            }).orElse(true);
        }
    }
}
