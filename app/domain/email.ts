/** The longest address a mail path can carry (RFC 5321: 256 with the angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

// What a browser accepts in an input of type email (the HTML standard's "valid email address"),
// so the no-JavaScript forms cannot send anything else. Linear: the local part cannot hold "@", and
// a label cannot hold "." nor run past 63 characters, so no input can make it backtrack.
const EMAIL_ADDRESS =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The app's one email rule: at most EMAIL_MAX_LENGTH characters (checked first), in the HTML standard's form. */
export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_ADDRESS.test(value);
}
