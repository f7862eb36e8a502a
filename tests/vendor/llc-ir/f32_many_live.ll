; register pressure: 40 rows of a loaded, summed in order (s), then
; out = (((s * a39) * a38) ...) * a0: every row stays live across
; the sum (the compiler keeps or reloads them)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %c0 = insertelement <5 x i32> %c, i32 0, i32 1
  %a0 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c0, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c1 = insertelement <5 x i32> %c, i32 1, i32 1
  %a1 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c1, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c2 = insertelement <5 x i32> %c, i32 2, i32 1
  %a2 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c2, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c3 = insertelement <5 x i32> %c, i32 3, i32 1
  %a3 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c3, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c4 = insertelement <5 x i32> %c, i32 4, i32 1
  %a4 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c4, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c5 = insertelement <5 x i32> %c, i32 5, i32 1
  %a5 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c5, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c6 = insertelement <5 x i32> %c, i32 6, i32 1
  %a6 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c6, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c7 = insertelement <5 x i32> %c, i32 7, i32 1
  %a7 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c7, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c8 = insertelement <5 x i32> %c, i32 8, i32 1
  %a8 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c8, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c9 = insertelement <5 x i32> %c, i32 9, i32 1
  %a9 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c9, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c10 = insertelement <5 x i32> %c, i32 10, i32 1
  %a10 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c10, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c11 = insertelement <5 x i32> %c, i32 11, i32 1
  %a11 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c11, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c12 = insertelement <5 x i32> %c, i32 12, i32 1
  %a12 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c12, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c13 = insertelement <5 x i32> %c, i32 13, i32 1
  %a13 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c13, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c14 = insertelement <5 x i32> %c, i32 14, i32 1
  %a14 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c14, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c15 = insertelement <5 x i32> %c, i32 15, i32 1
  %a15 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c15, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c16 = insertelement <5 x i32> %c, i32 16, i32 1
  %a16 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c16, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c17 = insertelement <5 x i32> %c, i32 17, i32 1
  %a17 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c17, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c18 = insertelement <5 x i32> %c, i32 18, i32 1
  %a18 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c18, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c19 = insertelement <5 x i32> %c, i32 19, i32 1
  %a19 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c19, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c20 = insertelement <5 x i32> %c, i32 20, i32 1
  %a20 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c20, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c21 = insertelement <5 x i32> %c, i32 21, i32 1
  %a21 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c21, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c22 = insertelement <5 x i32> %c, i32 22, i32 1
  %a22 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c22, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c23 = insertelement <5 x i32> %c, i32 23, i32 1
  %a23 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c23, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c24 = insertelement <5 x i32> %c, i32 24, i32 1
  %a24 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c24, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c25 = insertelement <5 x i32> %c, i32 25, i32 1
  %a25 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c25, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c26 = insertelement <5 x i32> %c, i32 26, i32 1
  %a26 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c26, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c27 = insertelement <5 x i32> %c, i32 27, i32 1
  %a27 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c27, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c28 = insertelement <5 x i32> %c, i32 28, i32 1
  %a28 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c28, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c29 = insertelement <5 x i32> %c, i32 29, i32 1
  %a29 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c29, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c30 = insertelement <5 x i32> %c, i32 30, i32 1
  %a30 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c30, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c31 = insertelement <5 x i32> %c, i32 31, i32 1
  %a31 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c31, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c32 = insertelement <5 x i32> %c, i32 32, i32 1
  %a32 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c32, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c33 = insertelement <5 x i32> %c, i32 33, i32 1
  %a33 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c33, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c34 = insertelement <5 x i32> %c, i32 34, i32 1
  %a34 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c34, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c35 = insertelement <5 x i32> %c, i32 35, i32 1
  %a35 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c35, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c36 = insertelement <5 x i32> %c, i32 36, i32 1
  %a36 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c36, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c37 = insertelement <5 x i32> %c, i32 37, i32 1
  %a37 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c37, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c38 = insertelement <5 x i32> %c, i32 38, i32 1
  %a38 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c38, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %c39 = insertelement <5 x i32> %c, i32 39, i32 1
  %a39 = call <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32> %c39, i8 0, i32 0, <64 x float> undef, i1 true, i1 false)
  %s0 = fadd <64 x float> %a0, %a1
  %s1 = fadd <64 x float> %s0, %a2
  %s2 = fadd <64 x float> %s1, %a3
  %s3 = fadd <64 x float> %s2, %a4
  %s4 = fadd <64 x float> %s3, %a5
  %s5 = fadd <64 x float> %s4, %a6
  %s6 = fadd <64 x float> %s5, %a7
  %s7 = fadd <64 x float> %s6, %a8
  %s8 = fadd <64 x float> %s7, %a9
  %s9 = fadd <64 x float> %s8, %a10
  %s10 = fadd <64 x float> %s9, %a11
  %s11 = fadd <64 x float> %s10, %a12
  %s12 = fadd <64 x float> %s11, %a13
  %s13 = fadd <64 x float> %s12, %a14
  %s14 = fadd <64 x float> %s13, %a15
  %s15 = fadd <64 x float> %s14, %a16
  %s16 = fadd <64 x float> %s15, %a17
  %s17 = fadd <64 x float> %s16, %a18
  %s18 = fadd <64 x float> %s17, %a19
  %s19 = fadd <64 x float> %s18, %a20
  %s20 = fadd <64 x float> %s19, %a21
  %s21 = fadd <64 x float> %s20, %a22
  %s22 = fadd <64 x float> %s21, %a23
  %s23 = fadd <64 x float> %s22, %a24
  %s24 = fadd <64 x float> %s23, %a25
  %s25 = fadd <64 x float> %s24, %a26
  %s26 = fadd <64 x float> %s25, %a27
  %s27 = fadd <64 x float> %s26, %a28
  %s28 = fadd <64 x float> %s27, %a29
  %s29 = fadd <64 x float> %s28, %a30
  %s30 = fadd <64 x float> %s29, %a31
  %s31 = fadd <64 x float> %s30, %a32
  %s32 = fadd <64 x float> %s31, %a33
  %s33 = fadd <64 x float> %s32, %a34
  %s34 = fadd <64 x float> %s33, %a35
  %s35 = fadd <64 x float> %s34, %a36
  %s36 = fadd <64 x float> %s35, %a37
  %s37 = fadd <64 x float> %s36, %a38
  %s38 = fadd <64 x float> %s37, %a39
  %q39 = fmul <64 x float> %s38, %a39
  %q38 = fmul <64 x float> %q39, %a38
  %q37 = fmul <64 x float> %q38, %a37
  %q36 = fmul <64 x float> %q37, %a36
  %q35 = fmul <64 x float> %q36, %a35
  %q34 = fmul <64 x float> %q35, %a34
  %q33 = fmul <64 x float> %q34, %a33
  %q32 = fmul <64 x float> %q33, %a32
  %q31 = fmul <64 x float> %q32, %a31
  %q30 = fmul <64 x float> %q31, %a30
  %q29 = fmul <64 x float> %q30, %a29
  %q28 = fmul <64 x float> %q29, %a28
  %q27 = fmul <64 x float> %q28, %a27
  %q26 = fmul <64 x float> %q27, %a26
  %q25 = fmul <64 x float> %q26, %a25
  %q24 = fmul <64 x float> %q25, %a24
  %q23 = fmul <64 x float> %q24, %a23
  %q22 = fmul <64 x float> %q23, %a22
  %q21 = fmul <64 x float> %q22, %a21
  %q20 = fmul <64 x float> %q21, %a20
  %q19 = fmul <64 x float> %q20, %a19
  %q18 = fmul <64 x float> %q19, %a18
  %q17 = fmul <64 x float> %q18, %a17
  %q16 = fmul <64 x float> %q17, %a16
  %q15 = fmul <64 x float> %q16, %a15
  %q14 = fmul <64 x float> %q15, %a14
  %q13 = fmul <64 x float> %q14, %a13
  %q12 = fmul <64 x float> %q13, %a12
  %q11 = fmul <64 x float> %q12, %a11
  %q10 = fmul <64 x float> %q11, %a10
  %q9 = fmul <64 x float> %q10, %a9
  %q8 = fmul <64 x float> %q9, %a8
  %q7 = fmul <64 x float> %q8, %a7
  %q6 = fmul <64 x float> %q7, %a6
  %q5 = fmul <64 x float> %q6, %a5
  %q4 = fmul <64 x float> %q5, %a4
  %q3 = fmul <64 x float> %q4, %a3
  %q2 = fmul <64 x float> %q3, %a2
  %q1 = fmul <64 x float> %q2, %a1
  %q0 = fmul <64 x float> %q1, %a0
  %o1 = fmul <64 x float> %q0, <float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0, float 1.0>
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %c, i8 1, <64 x float> %o1, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)
