/**
 * What DynamoDB accepts as a table name: 3 to 255 letters, digits, `_`, `-` and `.`. Here,
 * without the AWS SDK, so configuration code can check a name before any driver loads.
 */
export const DYNAMO_TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/** The rule of {@link DYNAMO_TABLE_NAME}, as a message. */
export const DYNAMO_TABLE_NAME_RULE = '3 to 255 letters, digits, _, - and .';
