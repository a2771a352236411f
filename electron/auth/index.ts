/**
 * The station's login: accounts (companies), the OAuth loopback login, manual mode, the token
 * manager (the service client's AccessTokenSource) and the keychain seam. Plain Node.
 */
export { createAccounts, DEFAULT_SCOPES, type Account, type Accounts, type AccountsOptions, type EnvironmentUrls, type NewAccount, type Environment } from './accounts';
export { createKeytarSecretStore, createMemorySecretStore, KEYCHAIN_SERVICE, secretNames, type SecretStore } from './keychain';
export { DEFAULT_REDIRECT_PATH, DEFAULT_REDIRECT_PORT, loginWithBrowser, loopbackRedirectUri, type LoopbackLoginOptions } from './loopbackLogin';
export { createTokenManager, type LoginState, type TokenManager, type TokenManagerOptions } from './tokenManager';
export type { TokenGrant } from './tokenEndpoint';
