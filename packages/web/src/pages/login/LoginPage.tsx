import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import {
  EyeInvisibleOutlined,
  EyeOutlined,
  LoadingOutlined,
  LockOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { LANGUAGES, LOGO_PATH } from '@gatehouse/shared';
import { feedback } from '../../core/feedback.tsx';
import { changeLanguage, LANGUAGE_NAMES } from '../../core/language.ts';
import { login } from '../../core/auth.ts';
import { useAppStore } from '../../stores/app.ts';
import { useSettingsStore } from '../../stores/settings.ts';
import './login.css';

// The dialog (antd) loads when asked for: the login page is the first screen and stays small.
const ThirdPartyDialog = lazy(() => import('./ThirdPartyDialog.tsx'));

/** Only paths of this app: an absolute or protocol-relative address would leave it. */
export function safeRedirect(redirect: string | null): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/login'))
    return '/';
  return redirect;
}

type Field = 'username' | 'password';

function LoginField(props: {
  icon: ReactNode;
  error: string | undefined;
  children: ReactNode;
  suffix?: ReactNode;
}) {
  return (
    <div className="login-field">
      <div className={props.error ? 'login-input has-error' : 'login-input'}>
        <span className="login-input-icon">{props.icon}</span>
        {props.children}
        {props.suffix}
      </div>
      <div className="login-error" role="alert">
        {props.error}
      </div>
    </div>
  );
}

/** The password, with a show/hide eye and a Caps Lock warning where its error would be. */
function PasswordField(props: { value: string; error: string | undefined; onChange(value: string): void }) {
  const { t } = useTranslation();
  const [showPassword, setShowPassword] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  return (
    <LoginField
      icon={<LockOutlined />}
      error={props.error ?? (capsLock ? t('login.capsLock') : undefined)}
      suffix={
        <button
          type="button"
          className="login-eye"
          aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
          onClick={() => setShowPassword(!showPassword)}
        >
          {showPassword ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      }
    >
      <input
        name="password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        placeholder={t('login.password')}
        aria-label={t('login.password')}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyUp={(event) => setCapsLock(event.getModifierState?.('CapsLock') ?? false)}
      />
    </LoginField>
  );
}

/** Log in, in the theme's colour; spinning while the request runs. */
function SubmitButton({ loading }: { loading: boolean }) {
  const { t } = useTranslation();
  const theme = useSettingsStore((s) => s.theme);
  return (
    <button
      type="submit"
      className="login-submit"
      style={{ background: theme, borderColor: theme }}
      disabled={loading}
      aria-busy={loading}
      data-testid="login-submit"
    >
      {loading && <LoadingOutlined />}
      {t('login.logIn')}
    </button>
  );
}

/** The languages, each in its own name; a choice applies at once and says so. */
function LoginLanguages() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  return (
    <nav className="login-languages" aria-label={t('navbar.language')}>
      {LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          className={lang === language ? 'active' : undefined}
          aria-pressed={lang === language}
          data-language={lang}
          onClick={() =>
            void changeLanguage(lang).then(() => feedback.success(i18next.t('message.switchLanguageSuccess')))
          }
        >
          {LANGUAGE_NAMES[lang]}
        </button>
      ))}
    </nav>
  );
}

/**
 * The login form (spec section 2): title, username, password, login button; third-party login is shown
 * as not implemented. Plain HTML, no antd: the first screen downloads as little as possible (see
 * docs/web-shell.md, "Size").
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [loading, setLoading] = useState(false);
  const [thirdParty, setThirdParty] = useState(false);

  function set(field: Field, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!values.username.trim()) found.username = t('login.usernameRequired');
    if (!values.password) found.password = t('login.passwordRequired');
    setErrors(found);
    if (Object.keys(found).length) return;
    setLoading(true);
    try {
      await login(values.username, values.password);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The request client has shown the server's message (wrong credentials, locked, disabled).
      setLoading(false);
    }
  }

  return (
    <div className="login-container">
      <form className="login-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="login-title">
          <img src={LOGO_PATH} alt="" className="login-logo" />
          <h1>{t('login.title')}</h1>
        </div>
        <LoginField icon={<UserOutlined />} error={errors.username}>
          <input
            name="username"
            autoComplete="username"
            placeholder={t('login.username')}
            aria-label={t('login.username')}
            autoFocus
            value={values.username}
            onChange={(event) => set('username', event.target.value)}
          />
        </LoginField>
        <PasswordField
          value={values.password}
          error={errors.password}
          onChange={(value) => set('password', value)}
        />
        <SubmitButton loading={loading} />
        <div className="login-tips">
          <LoginLanguages />
          <button type="button" className="login-thirdparty" onClick={() => setThirdParty(true)}>
            {t('login.thirdparty')}
          </button>
        </div>
      </form>
      {thirdParty && (
        <Suspense fallback={null}>
          <ThirdPartyDialog onClose={() => setThirdParty(false)} />
        </Suspense>
      )}
    </div>
  );
}
