import { App, Avatar, Button, Card, Col, Form, Input, Row } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { antdRule, AppUserApi, required, type UserInfo } from '@gatehouse/shared';
import { serverFieldErrors } from '../../core/field-errors.ts';
import { call } from '../../core/api.ts';
import { avatarUrl, useSessionStore } from '../../stores/session.ts';

interface ProfileForm {
  Name: string;
  Avatar: string;
}

interface PasswordForm {
  OldPassword: string;
  NewPassword: string;
  Confirm: string;
}

/** Password length accepted by the server (ModifyPassword: 8 to 64 characters). */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 64;

/** Edit one's own name and avatar, change one's password (not cached: it always opens fresh). */
export default function ProfilePage() {
  const { t } = useTranslation();
  const info = useSessionStore((s) => s.info);
  if (!info) return null;
  return (
    <Row gutter={[16, 16]} data-testid="profile">
      <Col xs={24} lg={12}>
        <Card title={t('profile.account')}>
          <AccountForm info={info} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('profile.password')}>
          <PasswordChange userId={info.Id} />
        </Card>
      </Col>
    </Row>
  );
}

/** One's own name and avatar (with its preview). */
function AccountForm({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const permitted = useSessionStore((s) => s.permitted);
  const setInfo = useSessionStore((s) => s.setInfo);
  const [profileForm] = Form.useForm<ProfileForm>();
  const avatarPreview = Form.useWatch('Avatar', profileForm);
  const requiredRule = antdRule((key) => t(key), required);
  const saveProfile = useMutation({
    mutationFn: (values: ProfileForm) =>
      call(AppUserApi.updateOwnInfo, {
        params: { Id: info.Id },
        body: { Name: values.Name.trim(), Avatar: values.Avatar.trim() || null },
      }),
    onSuccess: (_data, values) => {
      setInfo({ ...info, Name: values.Name.trim(), Avatar: values.Avatar.trim() || null }, permitted);
      void message.success(t('profile.saved'));
    },
  });
  return (
    <Form<ProfileForm>
      form={profileForm}
      layout="vertical"
      initialValues={{ Name: info.Name, Avatar: info.Avatar ?? '' }}
      onFinish={(values) => saveProfile.mutate(values)}
    >
      {/* Shown, not a field of the form: its label is tied to it by hand. */}
      <Form.Item label={t('profile.userName')} htmlFor="profile-user-name">
        <Input id="profile-user-name" value={info.UserName} disabled />
      </Form.Item>
      <Form.Item
        label={t('profile.name')}
        name="Name"
        rules={[requiredRule, { max: 50, message: t('validation.tooLong', { max: 50 }) }]}
      >
        <Input data-testid="profile-name" />
      </Form.Item>
      <Form.Item
        label={t('profile.avatar')}
        name="Avatar"
        extra={info.ImageBaseUrl ? t('profile.avatarHint', { base: info.ImageBaseUrl }) : undefined}
        rules={[{ max: 500, message: t('validation.tooLong', { max: 500 }) }]}
      >
        <Input
          addonAfter={
            <Avatar
              size={24}
              shape="square"
              src={
                avatarPreview
                  ? avatarUrl({ Avatar: avatarPreview, ImageBaseUrl: info.ImageBaseUrl })
                  : undefined
              }
              icon={<UserOutlined />}
            />
          }
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saveProfile.isPending}>
        {t('profile.save')}
      </Button>
    </Form>
  );
}

/** One's own password: the current one, the new one twice. */
function PasswordChange({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [passwordForm] = Form.useForm<PasswordForm>();
  const requiredRule = antdRule((key) => t(key), required);
  const changePassword = useMutation({
    mutationFn: (values: PasswordForm) =>
      call(
        AppUserApi.modifyPassword,
        {
          params: { Id: userId },
          body: { OldPassword: values.OldPassword, NewPassword: values.NewPassword },
        },
        // Quiet: a wrong current password belongs under its field, not in a toast.
        { quiet: true },
      ),
    onSuccess: () => {
      passwordForm.resetFields();
      void message.success(t('profile.passwordChanged'));
    },
    onError: (error) => {
      const { fields, rest } = serverFieldErrors(error, ['OldPassword', 'NewPassword']);
      passwordForm.setFields(fields as Parameters<typeof passwordForm.setFields>[0]);
      if (rest) void message.error(rest);
    },
  });
  return (
    <Form<PasswordForm>
      form={passwordForm}
      layout="vertical"
      onFinish={(values) => changePassword.mutate(values)}
    >
      <Form.Item label={t('profile.oldPassword')} name="OldPassword" rules={[requiredRule]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label={t('profile.newPassword')}
        name="NewPassword"
        rules={[
          requiredRule,
          { min: PASSWORD_MIN, message: t('validation.tooShort', { min: PASSWORD_MIN }) },
          { max: PASSWORD_MAX, message: t('validation.tooLong', { max: PASSWORD_MAX }) },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t('profile.confirmPassword')}
        name="Confirm"
        dependencies={['NewPassword']}
        rules={[
          requiredRule,
          ({ getFieldValue }) => ({
            validator: (_rule, value) =>
              !value || value === getFieldValue('NewPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('profile.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
        {t('profile.changePassword')}
      </Button>
    </Form>
  );
}
