/** The SDK's version, sent in `x-interlock-sdk` and `user-agent`. Kept equal to package.json's. */
export const VERSION = '0.1.0';
