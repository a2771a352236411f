/** Messages of the HTTP layer (formats, envelope, generic statuses). Spec "Common conventions" 9. */
import type { Msg } from '../i18n';

export const httpMessages = {
  notAcceptable: {
    en: 'The Accept header asks for a format the service does not offer ({accept}). Use application/json, application/xml or application/x-www-form-urlencoded.',
    cs: 'Hlavička Accept žádá formát, který služba nenabízí ({accept}). Použijte application/json, application/xml nebo application/x-www-form-urlencoded.',
  },
  unsupportedContentType: {
    en: 'The request body has an unsupported Content-type ({contentType}). Send application/json, application/xml or application/x-www-form-urlencoded.',
    cs: 'Tělo požadavku má nepodporovaný Content-type ({contentType}). Posílejte application/json, application/xml nebo application/x-www-form-urlencoded.',
  },
  bodyNotJson: { en: 'The request body is not valid JSON: {detail}', cs: 'Tělo požadavku není platný JSON: {detail}' },
  bodyNotXml: { en: 'The request body is not valid XML: {detail}', cs: 'Tělo požadavku není platné XML: {detail}' },
  xmlNoRoot: {
    en: 'The XML request body must have the root element <root>.',
    cs: 'XML tělo požadavku musí mít kořenový element <root>.',
  },
  bodyNotObject: {
    en: 'The request body must be an object with named keys.',
    cs: 'Tělo požadavku musí být objekt s pojmenovanými klíči.',
  },
  bodyTooLarge: {
    en: 'The request body is larger than {limit} bytes.',
    cs: 'Tělo požadavku je větší než {limit} bajtů.',
  },
  bodyNotForm: {
    en: 'The request body is not valid form data: {detail}',
    cs: 'Tělo požadavku nejsou platná formulářová data: {detail}',
  },
  formTooManyPairs: {
    en: 'The form body has more than {max} key=value pairs; split the request.',
    cs: 'Formulářové tělo má víc než {max} dvojic klíč=hodnota; rozdělte požadavek.',
  },
  xmlTooManyTags: {
    en: 'The XML body has more than {max} tags; split the request.',
    cs: 'XML tělo má víc než {max} značek; rozdělte požadavek.',
  },
  bodyTooDeep: {
    en: 'The body is nested deeper than {max} levels.',
    cs: 'Tělo je zanořené hlouběji než {max} úrovní.',
  },
  listTooLong: { en: 'A list in the body has more than {max} elements.', cs: 'Seznam v těle má víc než {max} prvků.' },
  objectTooManyKeys: {
    en: 'An object in the body has more than {max} keys.',
    cs: 'Objekt v těle má víc než {max} klíčů.',
  },
  bodyTooManyValues: {
    en: 'The body has more than {max} values; split the request.',
    cs: 'Tělo má víc než {max} hodnot; rozdělte požadavek.',
  },
  stringTooLong: {
    en: 'A text or key in the body is longer than {max} characters.',
    cs: 'Text nebo klíč v těle je delší než {max} znaků.',
  },
  loneSurrogate: {
    en: 'The text is not valid Unicode (an unpaired UTF-16 surrogate).',
    cs: 'Text není platný Unicode (nespárovaný náhradní znak UTF-16).',
  },
  notFound: { en: 'No resource at {path}.', cs: 'Na adrese {path} není žádný zdroj.' },
  methodNotAllowed: {
    en: 'Method {method} is not allowed here; allowed: {allowed}.',
    cs: 'Metoda {method} zde není povolena; povolené: {allowed}.',
  },
  internalError: {
    en: 'The sandbox failed to handle the request. This is a bug in the sandbox; the request was not applied.',
    cs: 'Sandbox nedokázal požadavek zpracovat. Jde o chybu sandboxu; požadavek nebyl proveden.',
  },
  uriTooLong: {
    en: 'The URL is longer than {limit} bytes. Split the search into several requests.',
    cs: 'URL je delší než {limit} bajtů. Rozdělte vyhledávání do více požadavků.',
  },
  apiRunning: { en: 'API is running', cs: 'API běží' },
  validationFailed: { en: 'Validation failed', cs: 'Validace selhala' },
} satisfies Record<string, Msg>;
