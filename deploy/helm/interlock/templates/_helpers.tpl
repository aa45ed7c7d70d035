{{- define "interlock.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "interlock.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "interlock.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "interlock.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "interlock.selectorLabels" -}}
app.kubernetes.io/name: {{ include "interlock.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "interlock.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* The environment every container of the chart shares: database, secrets, settings. */}}
{{- define "interlock.env" -}}
- name: NODE_ENV
  value: production
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret is required: a Secret with DATABASE_URL (an external Postgres)" .Values.database.existingSecret }}
      key: {{ .Values.database.urlKey }}
{{- if .Values.database.directUrlKey }}
- name: DATABASE_DIRECT_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.directUrlKey }}
{{- end }}
- name: API_KEY_PEPPER
  valueFrom:
    secretKeyRef:
      name: {{ required "secrets.existingSecret is required: a Secret with API_KEY_PEPPER" .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.pepperKey }}
{{- if .Values.secrets.cursorSecretKey }}
- name: CURSOR_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .Values.secrets.existingSecret }}
      key: {{ .Values.secrets.cursorSecretKey }}
{{- end }}
{{- range $name, $value := .Values.config }}
{{- if ne (toString $value) "" }}
- name: {{ $name }}
  value: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}
