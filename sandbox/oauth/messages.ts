/** Messages of the authorization server, its pages and the bearer check (spec "Authentication"). */
import type { Msg } from '../i18n';

export const oauthMessages = {
  // --- authorization request (spec "Flow" 1) ---
  clientIdMissing: { en: 'The request has no client_id.', cs: 'Požadavek neobsahuje client_id.' },
  clientUnknown: {
    en: 'No client is registered with client_id "{clientId}".',
    cs: 'Žádný klient s client_id „{clientId}“ není registrován.',
  },
  redirectMismatch: {
    en: 'The redirect_uri "{given}" does not match the registered address exactly.',
    cs: 'Adresa redirect_uri „{given}“ přesně neodpovídá registrované adrese.',
  },
  responseTypeMissing: { en: 'response_type is required.', cs: 'Parametr response_type je povinný.' },
  responseTypeUnsupported: { en: 'response_type must be "code".', cs: 'Parametr response_type musí být „code“.' },
  scopeMissing: { en: 'scope is required.', cs: 'Parametr scope je povinný.' },
  scopeInvalid: {
    en: 'The scope "{scope}" is not valid; use space-separated values of: deliveries, transports, collection-protocols, collection-places.',
    cs: 'Rozsah „{scope}“ není platný; použijte mezerou oddělené hodnoty z: deliveries, transports, collection-protocols, collection-places.',
  },
  stateMissing: { en: 'state is required by this service.', cs: 'Parametr state je touto službou vyžadován.' },
  pkceMethod: {
    en: 'code_challenge_method must be S256 and come with a code_challenge.',
    cs: 'code_challenge_method musí být S256 a musí být uveden spolu s code_challenge.',
  },
  pkceChallenge: {
    en: 'code_challenge must be 43 characters of base64url (the SHA-256 of the code_verifier).',
    cs: 'code_challenge musí mít 43 znaků base64url (SHA-256 z code_verifier).',
  },
  formTooLarge: {
    en: 'The form is larger than {limit} bytes.',
    cs: 'Formulář je větší než {limit} bajtů.',
  },
  duplicateParam: { en: 'The parameter {name} is given more than once.', cs: 'Parametr {name} je uveden vícekrát.' },
  accessDenied: { en: 'The user denied the request.', cs: 'Uživatel žádost zamítl.' },
  requestExpired: {
    en: 'This authorization request has expired or was already answered. Start again from the application.',
    cs: 'Tato žádost o autorizaci vypršela nebo už byla vyřízena. Začněte znovu z aplikace.',
  },

  // --- pages ---
  pageTitleLogin: { en: 'Sign in', cs: 'Přihlášení' },
  pageTitleConsent: { en: 'Allow access', cs: 'Povolit přístup' },
  pageTitleError: { en: 'Authorization error', cs: 'Chyba autorizace' },
  loginIntro: {
    en: '{company} asks for access to your company in the shipping service.',
    cs: '{company} žádá o přístup k vaší firmě ve službě přepravy.',
  },
  username: { en: 'User name', cs: 'Uživatelské jméno' },
  password: { en: 'Password', cs: 'Heslo' },
  signIn: { en: 'Sign in', cs: 'Přihlásit' },
  loginFailed: { en: 'The user name or password is wrong.', cs: 'Uživatelské jméno nebo heslo je chybné.' },
  consentIntro: {
    en: "Signed in as {username}. The application below asks for access to your company's data.",
    cs: 'Přihlášen(a) jako {username}. Níže uvedená aplikace žádá o přístup k datům vaší firmy.',
  },
  consentCompany: { en: 'Company', cs: 'Firma' },
  consentWeb: { en: 'Web address', cs: 'Webová adresa' },
  consentScope: { en: 'Requested access', cs: 'Požadovaný přístup' },
  consentRedirect: { en: 'After your answer you will be sent to', cs: 'Po vaší odpovědi budete přesměrováni na' },
  allow: { en: 'Allow', cs: 'Povolit' },
  deny: { en: 'Deny', cs: 'Zamítnout' },
  notGiven: { en: '(not given)', cs: '(neuvedeno)' },

  // --- registration page (spec "Client registration") ---
  pageTitleRegister: { en: 'Register a client', cs: 'Registrace klienta' },
  registerIntro: {
    en: 'Register your application once; you get a client_id. Keep the secret: it is never shown again.',
    cs: 'Aplikaci zaregistrujete jednou a získáte client_id. Tajný klíč si uschovejte: už nebude znovu zobrazen.',
  },
  fieldCompanyName: { en: 'Company name', cs: 'Název firmy' },
  fieldLogoUrl: { en: 'Logo address (URL)', cs: 'Adresa loga (URL)' },
  fieldWebUrl: { en: 'Web address', cs: 'Webová adresa' },
  fieldRedirectUri: { en: 'Redirect address (redirect_uri)', cs: 'Adresa přesměrování (redirect_uri)' },
  fieldClientSecret: {
    en: 'Secret (client_secret), at least 8 characters',
    cs: 'Tajný klíč (client_secret), alespoň 8 znaků',
  },
  register: { en: 'Register', cs: 'Registrovat' },
  registered: { en: 'The client is registered. Its client_id:', cs: 'Klient je zaregistrován. Jeho client_id:' },
  registerNeedsSecret: {
    en: 'This sandbox belongs to the station that started it: it registers clients only for a request carrying its admin secret (header x-sandbox-admin-secret).',
    cs: 'Tento sandbox patří stanici, která ho spustila: klienty registruje jen na požadavek s jeho tajným klíčem (hlavička x-sandbox-admin-secret).',
  },
  companyNameRequired: { en: 'The company name is required.', cs: 'Název firmy je povinný.' },
  redirectUriInvalid: {
    en: 'The redirect address must be an absolute http or https URL without a fragment.',
    cs: 'Adresa přesměrování musí být absolutní URL http nebo https bez fragmentu.',
  },
  urlInvalid: {
    en: 'The {field} must be an absolute http or https URL.',
    cs: 'Pole {field} musí být absolutní URL http nebo https.',
  },
  secretTooShort: { en: 'The secret must have at least 8 characters.', cs: 'Tajný klíč musí mít alespoň 8 znaků.' },

  // --- token endpoint (spec "Flow" 5-7, RFC 6749 5.2) ---
  tokenContentType: {
    en: 'The Content-type must be exactly application/x-www-form-urlencoded.',
    cs: 'Content-type musí být přesně application/x-www-form-urlencoded.',
  },
  credentialsNotInBasic: {
    en: 'Client credentials are accepted only through HTTP Basic authentication, not in the body or the query.',
    cs: 'Přihlašovací údaje klienta se přijímají pouze přes HTTP Basic autentizaci, ne v těle ani v dotazu.',
  },
  basicMissing: {
    en: 'Authenticate the client with HTTP Basic (client_id as user name, client_secret as password).',
    cs: 'Klienta ověřte pomocí HTTP Basic (client_id jako uživatelské jméno, client_secret jako heslo).',
  },
  clientAuthFailed: { en: 'The client_id or client_secret is wrong.', cs: 'client_id nebo client_secret je chybný.' },
  grantTypeMissing: { en: 'grant_type is required.', cs: 'Parametr grant_type je povinný.' },
  grantTypeUnsupported: {
    en: 'The grant type "{grantType}" is not supported; use authorization_code or refresh_token.',
    cs: 'Typ oprávnění „{grantType}“ není podporován; použijte authorization_code nebo refresh_token.',
  },
  fieldsMissing: { en: 'Required parameters are missing: {names}.', cs: 'Chybí povinné parametry: {names}.' },
  codeInvalid: {
    en: 'The authorization code is invalid, expired, already used, or was issued to another client.',
    cs: 'Autorizační kód je neplatný, vypršel, už byl použit nebo byl vydán jinému klientovi.',
  },
  tokenRedirectMismatch: {
    en: 'redirect_uri must be the registered address of the client.',
    cs: 'redirect_uri musí být registrovaná adresa klienta.',
  },
  scopeNotGranted: {
    en: 'The scope "{scope}" exceeds what the user granted ({granted}).',
    cs: 'Rozsah „{scope}“ přesahuje to, co uživatel povolil ({granted}).',
  },
  verifierMissing: {
    en: 'The authorization request carried a PKCE code_challenge: send the matching code_verifier.',
    cs: 'Žádost o autorizaci obsahovala PKCE code_challenge: pošlete odpovídající code_verifier.',
  },
  verifierMismatch: {
    en: 'The code_verifier does not match the code_challenge.',
    cs: 'code_verifier neodpovídá code_challenge.',
  },
  verifierUnexpected: {
    en: 'A code_verifier was sent but the authorization request had no code_challenge.',
    cs: 'Byl poslán code_verifier, ale žádost o autorizaci neobsahovala code_challenge.',
  },
  refreshInvalid: {
    en: 'The refresh token is invalid, was revoked, or belongs to another client.',
    cs: 'Obnovovací token je neplatný, byl odvolán nebo patří jinému klientovi.',
  },

  // --- resources (spec "Access to resources" 1-3, RFC 6750) ---
  tokenMissing: {
    en: 'No access token: send it in the Authorization header as "Bearer <token>".',
    cs: 'Chybí přístupový token: pošlete jej v hlavičce Authorization jako „Bearer <token>“.',
  },
  tokenInQuery: {
    en: 'An access token in the query or body is not supported: send it in the Authorization header.',
    cs: 'Přístupový token v dotazu nebo těle není podporován: pošlete jej v hlavičce Authorization.',
  },
  tokenInvalid: { en: 'The access token provided is invalid', cs: 'Poskytnutý přístupový token je neplatný' },
  tokenExpired: {
    en: 'The access token provided has expired',
    cs: 'Platnost poskytnutého přístupového tokenu vypršela',
  },
  insufficientScope: {
    en: 'The access token does not have the scope "{scope}" this resource needs.',
    cs: 'Přístupový token nemá rozsah „{scope}“, který tento zdroj vyžaduje.',
  },
} satisfies Record<string, Msg>;
