/** Words of the webhook screen (issue 29) that only the web app shows. */
export const webhookUi = {
  keyword: 'URL 或创建人',
  state: {
    active: '推送中',
    disabled: '已停用',
    failing: '连续失败已停用',
  },
  field: {
    Url: '接收地址',
    State: '状态',
    AreaIds: '区域',
    Events: '事件',
    Pending: '待推送',
    FailingSince: '失败开始于',
    CreatedByName: '创建人',
    CreatedAt: '创建时间',
    Disabled: '停用',
  },
  urlHint: '以 POST 推送到此地址；私有、环回和链路本地地址需在 WEBHOOK_ALLOW_NETWORKS 中放行',
  disabledHint: '停用后新事件不再推送；连续失败一天会被自动停用，重新启用即恢复重试',
  rotate: '更换密钥',
  confirmRotate: '更换签名密钥？旧密钥立即失效，接收方需要改用新密钥验证签名。',
  secretTitle: 'Webhook 签名密钥',
  secretWarning: '请立即复制并妥善保存此密钥。它只显示这一次，关闭对话框后无法再次查看；丢失后请更换密钥。',
  secretUse: '接收方用它按 Standard Webhooks 规范验证 webhook-signature 头',
  copyFailed: '无法自动复制，请选中密钥手动复制',
  secretDone: '我已保存密钥',
};
